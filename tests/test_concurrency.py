"""Several processes on one store: writers take turns, readers never fail nor go back in time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from recurscope.pipeline import Store, StoreError, StoreLockedError, ingest
from recurscope.pipeline.store import locking
from recurscope.pipeline.store.locking import (
    StoreUnavailableError,
    companions,
    open_for_writing,
    read_connection,
    waiting_writers,
)
from recurscope.pipeline.testing import ReceiverProcess, write_jsonl
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep

# A writer in another process that registers like `recurscope ingest` and holds the
# store until told to stop (a line on stdin) or for a number of seconds.
HOLD = textwrap.dedent(
    """
    import sys, time
    from recurscope.pipeline.store.locking import open_for_writing
    session = open_for_writing(sys.argv[1], kind="recurscope ingest")
    if len(sys.argv) > 3:
        session.store.write_spans([], source="holder", format="test")
        session.after_write()
    print("holding", flush=True)
    if sys.argv[2] == "stdin":
        sys.stdin.readline()
    else:
        time.sleep(float(sys.argv[2]))
    session.close()
    """
)

# A plain DuckDB connection in another process: not recurscope, not registered.
FOREIGN = textwrap.dedent(
    """
    import sys, duckdb
    con = duckdb.connect(sys.argv[1])
    print("holding", flush=True)
    sys.stdin.readline()
    """
)


class Holder:
    """A process holding the store until released."""

    def __init__(self, db: Path, script: str = HOLD, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", script, str(db), "stdin", *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "holding"

    @property
    def pid(self) -> int:
        return self.process.pid

    def release(self) -> None:
        assert self.process.stdin is not None
        if self.process.poll() is None:
            self.process.stdin.write("\n")
            self.process.stdin.flush()
        self.process.wait(timeout=30)


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "recurscope.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def table(db: Path, sql: str) -> list[tuple[object, ...]]:
    with Store.open(db, read_only=True) as store:
        rows: list[tuple[object, ...]] = store.query(sql)
    return rows


SPANS = "SELECT * EXCLUDE (IngestId) FROM otel_traces ORDER BY TraceId, SpanId"

BLOCK = 262_144
"""DuckDB's block size: a snapshot one block short has lost data."""


@pytest.fixture
def store_with_snapshot(tmp_path: Path) -> Path:
    """A store holding 100 spans whose snapshot has been published."""
    db = tmp_path / "shared.duckdb"
    write_jsonl(tmp_path / "seed.jsonl", 100, seed=99)
    with open_for_writing(db, kind="test", upkeep=EvidenceUpkeep()) as session:
        ingest([tmp_path / "seed.jsonl"], session.store, progress=False)
        session.mark_dirty()
    assert companions(db).snapshot.exists()
    return db


# -- the access protocol, one piece at a time ---------------------------------------------------


def test_companions_sit_beside_the_store(tmp_path: Path) -> None:
    """Snapshot, spool and registry are named after the store."""
    comp = companions(tmp_path / "recurscope.duckdb")
    assert comp.snapshot.name == "recurscope.snapshot.duckdb"
    assert comp.spool.name == "recurscope.spool"
    assert comp.access.name == "recurscope.access"


def test_ingest_of_the_stores_folder_skips_its_companions(
    store_with_snapshot: Path, tmp_path: Path
) -> None:
    """Ingesting the folder that holds the store reads neither the snapshot nor the spool."""
    comp = companions(store_with_snapshot)
    comp.spool.mkdir()
    (comp.spool / "000000000001-x.seg").write_bytes(b"RSSPOOL1" + b"\0" * 24)
    with Store.open(store_with_snapshot) as store:
        report = ingest([tmp_path], store, progress=False)
    names = {Path(s.source).name for s in report.sources}
    assert names == {"seed.jsonl"}


@pytest.mark.integration
class TestReaders:
    def test_a_free_store_is_read_live(self, store_with_snapshot: Path) -> None:
        """Nobody writing: the reader gets the store itself."""
        with read_connection(store_with_snapshot) as view:
            assert view.source == "live"
            assert view.connection.execute("SELECT count(*) FROM otel_traces").fetchone() == (100,)
            assert view.describe() == "live data"

    def test_a_registered_writer_sends_readers_to_the_snapshot_at_once(
        self, store_with_snapshot: Path
    ) -> None:
        """While `ingest` holds the store, the reader opens the snapshot without waiting."""
        holder = Holder(store_with_snapshot)
        try:
            started = time.monotonic()
            with read_connection(store_with_snapshot, wait=5) as view:
                assert view.source == "snapshot"
                count = view.connection.execute("SELECT count(*) FROM otel_traces").fetchone()
            assert time.monotonic() - started < 2
        finally:
            holder.release()
        assert count == (100,)
        assert view.note is not None and f"recurscope ingest (pid {holder.pid})" in view.note
        assert view.describe().startswith("snapshot from ")

    def test_no_snapshot_yet_is_a_clear_message(self, tmp_path: Path) -> None:
        """A busy store without a snapshot raises StoreUnavailableError naming the writer."""
        db = tmp_path / "fresh.duckdb"
        Store.open(db).close()
        holder = Holder(db, FOREIGN)
        try:
            with pytest.raises(StoreUnavailableError, match="no snapshot has been published"):
                with read_connection(db, wait=0.3):
                    pass
        finally:
            holder.release()

    def test_a_short_snapshot_is_refused_with_what_to_do(self, store_with_snapshot: Path) -> None:
        """A snapshot missing its last block: opened three times, then named with the remedy."""
        snapshot = companions(store_with_snapshot).snapshot
        holder = Holder(store_with_snapshot)  # it would publish a whole one when it opens
        os.truncate(snapshot, snapshot.stat().st_size - BLOCK)
        try:
            with pytest.raises(StoreUnavailableError) as caught:
                with read_connection(store_with_snapshot, wait=0.3):
                    pass
        finally:
            holder.release()
        message = str(caught.value)
        assert f"{snapshot} could not be read" in message
        assert "3 times in a row" in message
        assert f"delete {snapshot}" in message

    def test_a_snapshot_replaced_while_a_reader_retries_is_read(
        self, store_with_snapshot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A short snapshot replaced by a whole one after the first attempt: the reader gets it."""
        snapshot = companions(store_with_snapshot).snapshot
        whole = tmp_path / "whole.duckdb"
        holder = Holder(store_with_snapshot)
        whole.write_bytes(snapshot.read_bytes())
        os.truncate(snapshot, snapshot.stat().st_size - BLOCK)
        attempts: list[Path] = []
        checked = locking._checked_version

        def check_then_publish(store: Store, path: Path, *, copy: bool) -> object:
            attempts.append(path)
            try:
                return checked(store, path, copy=copy)
            finally:
                if whole.exists():
                    os.replace(whole, snapshot)  # as a writer publishing a new one

        monkeypatch.setattr(locking, "_checked_version", check_then_publish)
        try:
            with read_connection(store_with_snapshot, wait=0.3) as view:
                assert view.source == "snapshot"
                count = view.connection.execute("SELECT count(*) FROM otel_traces").fetchone()
        finally:
            holder.release()
        assert count == (100,)
        assert attempts == [snapshot, snapshot]

    def test_a_read_that_fails_midway_names_the_file_and_what_to_do(
        self, store_with_snapshot: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
    ) -> None:
        """DuckDB failing under a command's query: exit 1 and a sentence, never a trace."""
        import duckdb

        from recurscope.cli import main as cli_main

        snapshot = companions(store_with_snapshot).snapshot
        failure = (
            f'IO Error: Could not read enough bytes from file "{snapshot}": attempted to read '
            "262144 bytes from location 17051648"
        )

        def cut_short(*args: object, **kwargs: object) -> None:
            raise duckdb.IOException(failure)

        monkeypatch.setattr("recurscope.cli.report.build_report", cut_short)
        assert cli_main(["report", "--db", str(store_with_snapshot)]) == 1
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert f"recurscope report: error: Reading {snapshot} failed midway" in err
        assert "run the command again" in err and f"delete {snapshot}" in err

    def test_what_to_do_depends_on_the_file_that_failed(self, tmp_path: Path) -> None:
        """A snapshot may be deleted; the store itself must be restored; no file: run again."""
        db = tmp_path / "s.duckdb"
        live = locking.unreadable_message(OSError(f'IO Error: short read from file "{db}"'))
        assert f"Reading {db} failed midway" in live and "restore it from a backup" in live
        snap = locking.unreadable_message(
            OSError(f'IO Error: short read from file "{companions(db).snapshot}"')
        )
        assert f"delete {companions(db).snapshot}" in snap
        bare = locking.unreadable_message(OSError("IO Error: something"))
        assert "Run the command again" in bare

    def test_no_store_at_all_says_to_ingest_first(self, tmp_path: Path) -> None:
        """Reading a path with no store and no snapshot says how to create one."""
        with pytest.raises(StoreError, match="ingest spans first"):
            with read_connection(tmp_path / "none.duckdb"):
                pass


@pytest.mark.integration
class TestWriters:
    def test_another_program_writing_fails_fast_unless_asked_to_wait(self, tmp_path: Path) -> None:
        """A notebook or DuckDB CLI may never let go: no silent two-minute wait by default."""
        db = tmp_path / "x.duckdb"
        Store.open(db).close()
        holder = Holder(db, FOREIGN)
        try:
            started = time.monotonic()
            with pytest.raises(StoreLockedError, match=f"pid {holder.pid}"):
                open_for_writing(db, kind="test", lock_timeout=60, wait_for_other_programs=False)
            assert time.monotonic() - started < 5
            with pytest.raises(StoreLockedError, match=r"Waited 0\.3 s"):
                open_for_writing(db, kind="test", lock_timeout=0.3)
        finally:
            holder.release()

    def test_a_registered_writer_is_waited_for_and_announced_once(self, tmp_path: Path) -> None:
        """The waiter says once whom it waits for, shows up as waiting, and gets the store."""
        db = tmp_path / "x.duckdb"
        Store.open(db).close()
        holder = Holder(db)
        messages: list[str] = []
        seen_waiting: list[list[str]] = []

        def watch() -> None:
            for _ in range(100):
                # This process is the waiter: look at the registry files themselves.
                found = [
                    p.read_text()
                    for p in companions(db).access.glob("waiting-*.json")
                    if "test-writer" in p.read_text()
                ]
                if found and messages:
                    seen_waiting.append(found)
                    break
                time.sleep(0.05)
            holder.release()

        releaser = threading.Thread(target=watch)
        releaser.start()
        try:
            with open_for_writing(
                db, kind="test-writer", wait_for_other_programs=False, on_wait=messages.append
            ) as session:
                assert session.store.scalar("SELECT 1") == 1
        finally:
            releaser.join()
        assert messages == [f"waiting for recurscope ingest (pid {holder.pid}) to release {db}"]
        assert seen_waiting and not list(companions(db).access.glob("waiting-*.json"))
        assert waiting_writers(db) == []

    def test_a_new_store_is_created_registered_and_published_on_first_use(
        self, tmp_path: Path
    ) -> None:
        """open_for_writing of a path with no store creates nothing until the store is used;
        then the writer holds, registers and publishes as it would have at once."""
        db = tmp_path / "data" / "new.duckdb"
        comp = companions(db)
        with open_for_writing(db, kind="test", upkeep=EvidenceUpkeep()) as session:
            assert list(tmp_path.iterdir()) == []
            assert session.store.scalar("SELECT count(*) FROM otel_traces") == 0
            assert db.exists() and comp.snapshot.exists()
            assert (comp.access / f"holding-{os.getpid()}.json").exists()
            assert not list(comp.access.glob("waiting-*.json"))
        assert not list(comp.access.glob("*.json"))

    def test_defer_creation_false_creates_the_store_at_once(self, tmp_path: Path) -> None:
        """The receiver's way: the store exists as soon as the session does."""
        db = tmp_path / "now.duckdb"
        with open_for_writing(db, kind="test", defer_creation=False) as session:
            assert db.exists() and session.store.opened

    def test_a_deferred_writer_waits_for_the_holder_when_first_used(self, tmp_path: Path) -> None:
        """If another writer creates and holds the store meanwhile, first use waits for it."""
        db = tmp_path / "x.duckdb"
        messages: list[str] = []
        session = open_for_writing(db, kind="test", on_wait=messages.append)
        Store.open(db).close()
        holder = Holder(db)
        releaser = threading.Timer(0.5, holder.release)
        releaser.start()
        try:
            with session:
                assert session.store.scalar("SELECT 1") == 1
        finally:
            releaser.join()
        assert messages == [f"waiting for recurscope ingest (pid {holder.pid}) to release {db}"]

    def test_a_failed_attempt_leaves_no_access_folder_behind(self, tmp_path: Path) -> None:
        """A writer that gives up removes the .access folder it created (if nothing else is in it)."""
        db = tmp_path / "x.duckdb"
        Store.open(db).close()
        holder = Holder(db, FOREIGN)
        try:
            with pytest.raises(StoreLockedError):
                open_for_writing(db, kind="test", wait_for_other_programs=False)
        finally:
            holder.release()
        assert not companions(db).access.exists()

    def test_publishing_a_snapshot_keeps_the_writers_lock(self, tmp_path: Path) -> None:
        """Copying the file for a snapshot must not drop DuckDB's POSIX lock (close() would)."""
        db = tmp_path / "x.duckdb"
        with open_for_writing(db, kind="test", upkeep=EvidenceUpkeep()) as session:
            session.publish()
            session.publish()
            probe = subprocess.run(
                [sys.executable, "-c", "import duckdb, sys; duckdb.connect(sys.argv[1])", str(db)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert probe.returncode != 0 and "Could not set lock" in probe.stderr

    def test_ingest_cli_waits_for_another_ingest_and_says_so(self, tmp_path: Path) -> None:
        """`recurscope ingest` prints one 'waiting for ...' line, then ingests once it may."""
        db = tmp_path / "x.duckdb"
        Store.open(db).close()
        write_jsonl(tmp_path / "a.jsonl", 50)
        holder = Holder(db)
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "recurscope.cli",
                "ingest",
                "--db",
                str(db),
                str(tmp_path / "a.jsonl"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # Release only once the ingest has announced itself and met the lock: on
        # a loaded machine its start-up alone can outlast any fixed delay.
        deadline = time.monotonic() + 60
        while not waiting_writers(db) and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        time.sleep(0.5)
        holder.release()
        out, err = process.communicate(timeout=120)
        result = subprocess.CompletedProcess(process.args, process.returncode, out, err)
        assert result.returncode == 0, result.stderr
        assert result.stderr.count("waiting for recurscope ingest") == 1
        assert "50 spans accepted" in result.stdout


# -- real processes at the same time ---------------------------------------------------------------

READER = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    from recurscope.pipeline.store.locking import read_connection
    db, stop = sys.argv[1], Path(sys.argv[2])
    deadline = time.monotonic() + 60
    while not stop.exists() and time.monotonic() < deadline:
        with read_connection(db, wait=0.2) as view:
            (count,) = view.connection.execute("SELECT count(*) FROM otel_traces").fetchone()
        print(json.dumps([view.source, count]), flush=True)
        time.sleep(0.02)
    """
)


@pytest.mark.integration
@pytest.mark.slow
def test_a_reader_polls_without_errors_while_a_writer_ingests(
    store_with_snapshot: Path, tmp_path: Path
) -> None:
    """A reader process polling during six back-to-back `ingest` runs never fails and
    never sees the count go down; it sees both the live store and snapshots."""
    db = store_with_snapshot
    files = [write_jsonl(tmp_path / f"part{i}.jsonl", 1500, seed=i) for i in range(6)]
    stop = tmp_path / "stop"
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(db), str(stop)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for path in files:
            result = cli("ingest", "--db", str(db), "--batch-size", "500", str(path))
            assert result.returncode == 0, result.stderr
    finally:
        stop.touch()
        out, err = reader.communicate(timeout=60)
    assert reader.returncode == 0, err
    seen = [json.loads(line) for line in out.splitlines()]
    counts = [count for _, count in seen]
    assert counts == sorted(counts), "a reader saw the number of spans go down"
    assert counts[-1] == 100 + 6 * 1500
    assert {"live", "snapshot"} <= {source for source, _ in seen}


@pytest.mark.integration
@pytest.mark.parametrize("same_file", [False, True], ids=["different files", "same file"])
def test_two_ingests_at_once_store_the_union_exactly_once(tmp_path: Path, same_file: bool) -> None:
    """Two `recurscope ingest` processes started together: both succeed, every span once."""
    db = tmp_path / "x.duckdb"
    first = write_jsonl(tmp_path / "a.jsonl", 2000, seed=1)
    second = first if same_file else write_jsonl(tmp_path / "b.jsonl", 2000, seed=2)
    command = [sys.executable, "-m", "recurscope.cli", "ingest", "--db", str(db)]
    runs = [
        subprocess.Popen(
            [*command, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for path in (first, second)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    expected = tmp_path / "expected.duckdb"
    with Store.open(expected) as store:
        ingest(sorted({first, second}), store, progress=False)
    assert table(db, SPANS) == table(expected, SPANS)
    assert table(db, "SELECT count(*) - count(DISTINCT (TraceId, SpanId)) FROM otel_traces") == [
        (0,)
    ]


@pytest.mark.integration
def test_ingest_while_serve_runs(tmp_path: Path) -> None:
    """`ingest` gets the store from a busy receiver; exports keep succeeding; all lands once."""
    db = tmp_path / "x.duckdb"
    path = write_jsonl(tmp_path / "a.jsonl", 5000, seed=5)
    sent: set[tuple[str, str]] = set()
    results: list[SpanExportResult] = []
    stop = threading.Event()
    with ReceiverProcess(db) as server:
        exporter = OTLPSpanExporter(endpoint=server.endpoint)

        def export_continuously() -> None:
            batch = 0
            while not stop.is_set() and batch < 500:
                spans = _spans(50, f"b{batch}")
                results.append(exporter.export(spans))
                sent.update(
                    (f"{s.context.trace_id:032x}", f"{s.context.span_id:016x}")
                    for s in spans
                    if s.context
                )
                batch += 1
                time.sleep(0.01)

        sender = threading.Thread(target=export_continuously)
        sender.start()
        try:
            time.sleep(0.5)
            result = cli("ingest", "--db", str(db), str(path))
        finally:
            stop.set()
            sender.join(timeout=60)
        assert result.returncode == 0, result.stderr
        assert "5,000 spans accepted" in result.stdout
        assert server.stop() == 0
    assert results and set(results) == {SpanExportResult.SUCCESS}
    stored = table(db, "SELECT TraceId, SpanId FROM otel_traces")
    assert len(stored) == len(set(stored)) == len(sent) + 5000
    assert sent <= {(str(t), str(s)) for t, s in stored}


def _spans(count: int, name: str) -> list[ReadableSpan]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "concurrency"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("t")
    for index in range(count):
        with tracer.start_as_current_span(f"{name}-{index}"):
            pass
    provider.shutdown()
    return list(exporter.get_finished_spans())
