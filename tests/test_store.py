"""The DuckDB store: schema, migrations, identity, quarantine of unstorable rows, locking."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest

from recurscope.pipeline import (
    SCHEMA_VERSION,
    EventRow,
    LinkRow,
    Reason,
    Rejection,
    SchemaVersionError,
    SpanRow,
    Store,
    StoreError,
    StoreLockedError,
    resolve_db_path,
)
from recurscope.pipeline.records import MAX_TIMESTAMP_NS, Position
from recurscope.pipeline.store import database as store_module
from recurscope.pipeline.store.database import ResumeMark

T0 = 1_700_000_000_123_456_789


def row(n: int = 1, **fields: Any) -> SpanRow:
    """A valid span row whose ids derive from ``n``."""
    base = SpanRow(
        trace_id=f"{n:032x}",
        span_id=f"{n:016x}",
        parent_span_id="",
        name=f"span-{n}",
        kind="Internal",
        start_time_unix_nano=T0,
        end_time_unix_nano=T0 + 1500,
    )
    return replace(base, **fields)


@pytest.fixture
def fresh_store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "store.duckdb") as store:
        yield store


def count(store: Store, table: str) -> int:
    value = store.scalar(f"SELECT count(*) FROM {table}")
    assert isinstance(value, int)
    return value


# -- opening, paths, schema ------------------------------------------------------


class TestOpening:
    def test_fresh_file_gets_every_table_and_the_schema_version(self, tmp_path: Path) -> None:
        """A new file is created with recurscope_meta, otel_traces, ingest_log, quarantine."""
        with Store.open(tmp_path / "sub" / "new.duckdb") as store:
            tables = {name for (name,) in store.query("SELECT table_name FROM duckdb_tables()")}
            assert {"recurscope_meta", "otel_traces", "ingest_log", "quarantine"} <= tables
            assert store.schema_version == SCHEMA_VERSION

    def test_default_path_env_var_and_flag(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """--db beats RECURSCOPE_DB, which beats data/recurscope.duckdb under the cwd."""
        monkeypatch.delenv("RECURSCOPE_DB", raising=False)
        assert resolve_db_path() == Path("data/recurscope.duckdb")
        monkeypatch.setenv("RECURSCOPE_DB", str(tmp_path / "env.duckdb"))
        assert resolve_db_path() == tmp_path / "env.duckdb"
        assert resolve_db_path(tmp_path / "flag.duckdb") == tmp_path / "flag.duckdb"
        monkeypatch.delenv("RECURSCOPE_DB")
        monkeypatch.chdir(tmp_path)
        with Store.open() as store:
            assert store.path == Path("data/recurscope.duckdb")
        assert (tmp_path / "data" / "recurscope.duckdb").exists()

    def test_read_only_open_of_a_missing_file_says_to_ingest_first(self, tmp_path: Path) -> None:
        """Opening a store that does not exist for reading explains how to create one."""
        with pytest.raises(StoreError, match="ingest spans first"):
            Store.open(tmp_path / "missing.duckdb", read_only=True)

    def test_a_file_that_is_not_duckdb_is_refused_clearly(self, tmp_path: Path) -> None:
        """A text file passed as --db gives a StoreError naming the problem, not a raw error."""
        bogus = tmp_path / "notes.txt"
        bogus.write_text("hello " * 200)
        with pytest.raises(StoreError, match="not a valid DuckDB") as caught:
            Store.open(bogus)
        assert caught.value.__cause__ is None and caught.value.__suppress_context__

    def test_a_foreign_duckdb_file_is_refused(self, tmp_path: Path) -> None:
        """A DuckDB file with tables but no recurscope_meta is not adopted."""
        path = tmp_path / "other.duckdb"
        con = duckdb.connect(str(path))
        con.execute("CREATE TABLE payroll (x INT)")
        con.close()
        with pytest.raises(SchemaVersionError, match="not a recurscope store"):
            Store.open(path)

    def test_memory_store_for_tests(self) -> None:
        """':memory:' opens a throwaway store."""
        with Store.open(":memory:") as store:
            assert store.write_spans([row()], source="t", format="test").accepted == 1


class TestDeferred:
    def test_nothing_exists_until_the_store_is_used(self, tmp_path: Path) -> None:
        """A deferred store creates no file or folder until its first query, then opens
        through its opener and runs after_open once."""
        db = tmp_path / "sub" / "late.duckdb"
        calls: list[str] = []
        store = Store.deferred(db, lambda: Store.open(db), after_open=lambda: calls.append("open"))
        assert not store.opened and not (tmp_path / "sub").exists()
        assert store.write_spans([row()], source="t", format="test").accepted == 1
        assert store.opened and db.exists() and calls == ["open"]
        assert store.scalar("SELECT count(*) FROM otel_traces") == 1
        assert calls == ["open"]
        store.close()

    def test_closing_an_unused_store_creates_nothing(self, tmp_path: Path) -> None:
        """Close before use: no file, and the store refuses use afterwards."""
        db = tmp_path / "never.duckdb"
        store = Store.deferred(db, lambda: Store.open(db))
        store.close()
        assert list(tmp_path.iterdir()) == []
        with pytest.raises(StoreError, match="closed"):
            store.scalar("SELECT 1")


class TestMigrations:
    def test_an_empty_duckdb_file_is_version_zero_and_is_migrated(self, tmp_path: Path) -> None:
        """A DuckDB file without tables is migrated from version 0 to the current one."""
        path = tmp_path / "empty.duckdb"
        duckdb.connect(str(path)).close()
        with Store.open(path) as store:
            assert store.schema_version == SCHEMA_VERSION

    def test_an_older_file_is_migrated_and_keeps_its_data(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Opening a file at version N with code at N+1 runs the migration and keeps rows."""
        path = tmp_path / "old.duckdb"
        with Store.open(path) as store:
            store.write_spans([row(1), row(2)], source="t", format="test")

        def add_column(con: duckdb.DuckDBPyConnection) -> None:
            con.execute("ALTER TABLE otel_traces ADD COLUMN Note VARCHAR DEFAULT 'migrated'")

        monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
        monkeypatch.setitem(store_module.MIGRATIONS, SCHEMA_VERSION, add_column)
        with Store.open(path) as store:
            assert store.schema_version == SCHEMA_VERSION + 1
            assert store.query("SELECT DISTINCT Note FROM otel_traces") == [("migrated",)]
            assert count(store, "otel_traces") == 2

    def test_an_older_file_opened_read_only_says_how_to_migrate(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A reader cannot migrate: the error says to open the file once for writing."""
        path = tmp_path / "old.duckdb"
        Store.open(path).close()
        monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
        with pytest.raises(SchemaVersionError, match="Open it once for writing"):
            Store.open(path, read_only=True)

    def test_a_newer_file_fails_with_what_to_do(self, tmp_path: Path) -> None:
        """A file from a newer recurscope is refused with upgrade instructions."""
        path = tmp_path / "future.duckdb"
        with Store.open(path) as store:
            store.connection.execute(
                "UPDATE recurscope_meta SET value = '99' WHERE key = 'schema_version'"
            )
        with pytest.raises(SchemaVersionError) as caught:
            Store.open(path)
        message = str(caught.value)
        assert "schema version 99" in message
        assert "pip install -U" in message and "--db" in message


# -- writing ---------------------------------------------------------------------


class TestWriting:
    def test_identity_is_trace_and_span_id(self, fresh_store: Store) -> None:
        """A span already stored, or repeated in a batch, is a duplicate: never inserted twice."""
        first = fresh_store.write_spans([row(1), row(2), row(1)], source="a", format="test")
        assert (first.accepted, first.duplicates, first.quarantined) == (2, 1, 0)
        second = fresh_store.write_spans(
            [row(2, name="changed"), row(3)], source="a", format="test"
        )
        assert (second.accepted, second.duplicates) == (1, 1)
        assert count(fresh_store, "otel_traces") == 3
        assert fresh_store.query(
            "SELECT SpanName FROM otel_traces WHERE SpanId = ?", [f"{2:016x}"]
        )[0] == ("span-2",)
        audit = fresh_store.query(
            "SELECT TraceId, SpanId FROM otel_traces GROUP BY ALL HAVING count(*) > 1"
        )
        assert audit == []

    def test_values_round_trip_in_the_clickhouse_shape(self, fresh_store: Store) -> None:
        """Maps, events, links, ns timestamps and durations are stored exactly."""
        span = row(
            7,
            parent_span_id="00000000000000aa",
            trace_state="k=v",
            service_name="svc",
            resource_attributes={"service.name": "svc"},
            scope_name="scope",
            scope_version="1",
            scope_attributes={"lib": "x"},
            attributes={"a": "1", "b": "[1,2]", "": "empty key"},
            status_code="Error",
            status_message="bad\x00nul",
            events=(EventRow(T0 + 10, "e", {"k": "v"}), EventRow(0, "epoch")),
            links=(LinkRow("f" * 32, "e" * 16, "s=1", {"l": "2"}), LinkRow("", "")),
        )
        fresh_store.write_spans([span], source="a", format="test")
        stored = fresh_store.query(
            "SELECT epoch_ns(Timestamp), Duration, ParentSpanId, TraceState, SpanKind, "
            "ServiceName, ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes, "
            "StatusCode, StatusMessage, epoch_ns(Events[1].Timestamp), Events[1].Name, "
            "Events[1].Attributes, len(Events), Links[1].TraceId, Links[1].Attributes, "
            "Links[2].SpanId, ScopeAttributes, IngestId FROM otel_traces"
        )
        assert stored == [
            (
                T0,
                1500,
                "00000000000000aa",
                "k=v",
                "Internal",
                "svc",
                {"service.name": "svc"},
                "scope",
                "1",
                {"a": "1", "b": "[1,2]", "": "empty key"},
                "Error",
                "bad\x00nul",
                T0 + 10,
                "e",
                {"k": "v"},
                2,
                "f" * 32,
                {"l": "2"},
                "",
                {"lib": "x"},
                1,
            )
        ]
        column_types = dict(
            fresh_store.query(
                "SELECT column_name, data_type FROM duckdb_columns() "
                "WHERE table_name = 'otel_traces'"
            )
        )
        assert column_types["Timestamp"] == "TIMESTAMP_NS"
        assert column_types["SpanAttributes"] == "MAP(VARCHAR, VARCHAR)"
        assert column_types["Duration"] == "BIGINT"

    @pytest.mark.parametrize(
        ("fields", "reason"),
        [
            ({"start_time_unix_nano": MAX_TIMESTAMP_NS + 1}, Reason.TIMESTAMP_OUT_OF_RANGE),
            (
                {"start_time_unix_nano": T0, "end_time_unix_nano": 2**64 - 1},
                Reason.TIMESTAMP_OUT_OF_RANGE,
            ),
            ({"end_time_unix_nano": T0 - 1}, Reason.NEGATIVE_DURATION),
            ({"start_time_unix_nano": 0}, Reason.MISSING_TIMESTAMP),
            ({"end_time_unix_nano": 0}, Reason.MISSING_TIMESTAMP),
            ({"events": (EventRow(2**63, "late"),)}, Reason.TIMESTAMP_OUT_OF_RANGE),
            ({"trace_id": "ABC"}, Reason.INVALID_ID),
            ({"parent_span_id": "xyz"}, Reason.INVALID_ID),
            ({"name": "\ud800"}, Reason.INVALID_UTF8),
        ],
    )
    def test_rows_the_table_cannot_hold_are_quarantined_not_altered(
        self, fresh_store: Store, fields: dict[str, object], reason: Reason
    ) -> None:
        """Out-of-range times, negative durations, bad ids and bad text go to quarantine."""
        bad = row(1, position=Position(line=3, byte_offset=10, span_index=2), **fields)
        result = fresh_store.write_spans([bad, row(2)], source="src", format="test")
        assert (result.accepted, result.quarantined, result.duplicates) == (1, 1, 0)
        ((stored_reason, line, offset, index, excerpt),) = fresh_store.query(
            "SELECT Reason, Line, ByteOffset, SpanIndex, Excerpt FROM quarantine"
        )
        assert stored_reason == str(reason)
        if reason != Reason.INVALID_UTF8:
            assert (line, offset, index) == (3, 10, 2)
            assert isinstance(excerpt, str)
            assert json.loads(excerpt)["startTimeUnixNano"] == str(bad.start_time_unix_nano)

    def test_largest_timestamp_fits(self, fresh_store: Store) -> None:
        """2262-04-11T23:47:16.854775806 is the last nanosecond TIMESTAMP_NS holds; it is kept."""
        edge = row(
            1, start_time_unix_nano=MAX_TIMESTAMP_NS - 5, end_time_unix_nano=MAX_TIMESTAMP_NS
        )
        assert fresh_store.write_spans([edge], source="s", format="t").accepted == 1
        assert fresh_store.scalar("SELECT epoch_ns(Timestamp) FROM otel_traces") == (
            MAX_TIMESTAMP_NS - 5
        )

    def test_rejections_and_excerpts_are_stored_safely(self, fresh_store: Store) -> None:
        """Quarantine rows keep reason, detail, ids and a truncated, valid-UTF-8 excerpt."""
        rejection = Rejection(
            Reason.INVALID_JSON,
            "bad",
            b"\xff\xfe" + b"x" * 10_000,
            Position(line=5),
            trace_id="\udc80",
        )
        fresh_store.write_spans([], source="weird-\udcff-name", format="t", rejections=[rejection])
        ((source, excerpt, trace_id),) = fresh_store.query(
            "SELECT Source, Excerpt, TraceId FROM quarantine"
        )
        assert isinstance(excerpt, str) and excerpt.startswith("\\xff\\xfe")
        assert len(excerpt) <= 4096 + 8
        assert source == "weird-\\udcff-name" and trace_id == "\\udc80"

    def test_ingest_log_counts_reconcile(self, fresh_store: Store) -> None:
        """records read = accepted + quarantined + duplicates, per run and for one-shot writes."""
        fresh_store.write_spans([row(1)], source="x", format="t")
        bad = Rejection(Reason.INVALID_JSON, "x")
        fresh_store.write_spans(
            [row(1), row(2), row(3, end_time_unix_nano=1)],
            source="x",
            format="t",
            rejections=[bad],
            bytes_read=99,
            checksum="abc",
        )
        logged = fresh_store.query(
            "SELECT RecordsRead, SpansAccepted, RowsQuarantined, DuplicatesSkipped, Bytes, "
            "Checksum, Status FROM ingest_log ORDER BY IngestId"
        )
        assert logged == [(1, 1, 0, 0, 0, None, "ok"), (4, 1, 2, 1, 99, "abc", "ok")]

    def test_an_ingest_run_commits_counts_and_resume_point_with_each_batch(
        self, fresh_store: Store
    ) -> None:
        """Each write commits rows, counts and the resume mark together (crash-consistent)."""
        run = fresh_store.begin_ingest("/data/a.jsonl", "otlp-json", source_size=100)
        run.write([row(1)], bytes_read=40, resume=ResumeMark(40, 1, "h1"))
        run.write([row(2)], bytes_read=80, resume=ResumeMark(80, 2, "h2"))
        # No finish(): as if the process died here.
        logged = fresh_store.logged_source("/data/a.jsonl")
        assert logged.resume == ResumeMark(80, 2, "h2")
        assert logged.resume_format == "otlp-json"
        assert logged.checksum is None  # no completed run yet
        assert fresh_store.query("SELECT Status, SpansAccepted, Bytes FROM ingest_log") == [
            ("running", 2, 80)
        ]
        summary = run.finish("ok", checksum="full")
        assert summary.spans_accepted == 2 and summary.records_read == 2
        assert fresh_store.logged_source("/data/a.jsonl").checksum == "full"

    def test_a_run_used_as_context_manager_records_failure(self, fresh_store: Store) -> None:
        """An exception inside ``with begin_ingest(...)`` marks the run failed with the error."""
        with pytest.raises(RuntimeError), fresh_store.begin_ingest("s", "t") as run:
            run.write([row(1)])
            raise RuntimeError("disk on fire")
        assert fresh_store.query("SELECT Status, Detail FROM ingest_log") == [
            ("failed", "RuntimeError: disk on fire")
        ]

    def test_read_only_store_refuses_writes(self, tmp_path: Path) -> None:
        """Writing through a read-only Store is a StoreError that says how to open for writing."""
        path = tmp_path / "s.duckdb"
        Store.open(path).close()
        with (
            Store.open(path, read_only=True) as store,
            pytest.raises(StoreError, match="read-only"),
        ):
            store.write_spans([row()], source="s", format="t")

    def test_threads_can_share_one_store(self, fresh_store: Store) -> None:
        """Concurrent writers in one process (the receiver's threads) are serialized safely."""

        def work(offset: int) -> None:
            for n in range(20):
                fresh_store.write_spans([row(offset + n), row(n)], source="t", format="t")

        threads = [threading.Thread(target=work, args=(1000 * (i + 1),)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert count(fresh_store, "otel_traces") == 4 * 20 + 20
        totals = fresh_store.query(
            "SELECT sum(RecordsRead), sum(SpansAccepted + DuplicatesSkipped) FROM ingest_log"
        )
        assert totals == [(160, 160)]


# -- other processes -------------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import sys, duckdb
    con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "ro")
    print("ready", flush=True)
    sys.stdin.readline()
    con.close()
    """
)


class Holder:
    """Another process that opens the file and keeps it until told to stop."""

    def __init__(self, path: Path, mode: str, *label: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path), mode, *label],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "ready"

    @property
    def pid(self) -> int:
        return self.process.pid

    def release(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()
        self.process.wait(timeout=30)


@pytest.fixture
def stored_file(tmp_path: Path) -> Path:
    path = tmp_path / "shared.duckdb"
    with Store.open(path) as store:
        store.write_spans([row(1), row(2)], source="s", format="t")
    return path


@pytest.mark.integration
class TestOtherProcesses:
    def test_a_second_process_reads_the_real_file(self, stored_file: Path) -> None:
        """The DuckDB file written here is read by a fresh process after it is closed."""
        code = (
            "import sys; from recurscope.pipeline import Store\n"
            "with Store.open(sys.argv[1], read_only=True) as s:\n"
            "    print(s.scalar('SELECT count(*) FROM otel_traces'))"
        )
        result = subprocess.run(
            [sys.executable, "-c", code, str(stored_file)],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        assert result.stdout.strip() == "2"

    def test_a_writer_elsewhere_gives_a_lock_error_naming_it(self, stored_file: Path) -> None:
        """Another process writing (here labelled 'recurscope serve') blocks us with advice."""
        holder = Holder(stored_file, "rw", "recurscope", "serve")
        try:
            with pytest.raises(StoreLockedError) as caught:
                Store.open(stored_file)
        finally:
            holder.release()
        error = caught.value
        assert error.holder_pid == holder.pid
        assert error.holder_kind == "recurscope serve"
        assert error.holder_mode == "read-write"
        message = str(error)
        assert f"pid {holder.pid}" in message
        assert "Send your spans to that receiver" in message and "--db" in message
        assert "IO Error" not in message
        assert error.__cause__ is None and error.__suppress_context__

    def test_a_reader_elsewhere_blocks_a_writer_with_advice(self, stored_file: Path) -> None:
        """A read-only holder (the dashboard) also blocks writers; the message says so."""
        holder = Holder(stored_file, "ro", "recurscope", "dashboard")
        try:
            with pytest.raises(StoreLockedError) as caught:
                Store.open(stored_file)
        finally:
            holder.release()
        assert caught.value.holder_mode == "read-only"
        assert "the recurscope dashboard" in str(caught.value)
        assert "open for reading" in str(caught.value)

    def test_a_reader_is_blocked_by_a_writer_elsewhere(self, stored_file: Path) -> None:
        """Opening for reading while another process writes explains waiting or copying."""
        holder = Holder(stored_file, "rw", "recurscope", "ingest")
        try:
            with pytest.raises(StoreLockedError, match=r"recurscope ingest .* is writing"):
                Store.open(stored_file, read_only=True)
        finally:
            holder.release()

    def test_lock_timeout_waits_for_the_holder_to_finish(self, stored_file: Path) -> None:
        """With lock_timeout, opening retries until the other process releases the file."""
        holder = Holder(stored_file, "rw")
        releaser = threading.Timer(0.5, holder.release)
        releaser.start()
        started = time.monotonic()
        try:
            with Store.open(stored_file, lock_timeout=30) as store:
                assert count(store, "otel_traces") == 2
        finally:
            releaser.join()
        assert time.monotonic() - started >= 0.4


def test_same_process_other_mode_is_a_lock_error(stored_file: Path) -> None:
    """Opening a file this process already has open in another mode says to reuse the Store."""
    with Store.open(stored_file), pytest.raises(StoreLockedError, match="this process"):
        Store.open(stored_file, read_only=True)


def test_ingest_log_times_are_utc_naive_timestamps(fresh_store: Store) -> None:
    """StartedAt/FinishedAt are UTC wall-clock TIMESTAMPs."""
    fresh_store.write_spans([row()], source="s", format="t")
    ((started, finished),) = fresh_store.query("SELECT StartedAt, FinishedAt FROM ingest_log")
    assert isinstance(started, datetime) and isinstance(finished, datetime)
    assert started <= finished
    assert abs((datetime.utcnow() - started).total_seconds()) < 600


def test_no_environment_leaks_between_tests() -> None:
    """Guard: the tests above never leave RECURSCOPE_DB set."""
    assert "RECURSCOPE_DB" not in os.environ or os.environ["RECURSCOPE_DB"]


def test_snapshot_is_a_complete_store_readers_can_open(fresh_store: Store, tmp_path: Path) -> None:
    """snapshot() writes a consistent copy a reader opens while the writer keeps the original."""
    fresh_store.write_spans([row(1), row(2)], source="s", format="t")
    target = fresh_store.snapshot(tmp_path / "snap.duckdb")
    fresh_store.write_spans([row(3)], source="s", format="t")
    with Store.open(target, read_only=True) as reader:
        assert count(reader, "otel_traces") == 2
        assert reader.schema_version == SCHEMA_VERSION
    fresh_store.snapshot(target)  # replaces the previous snapshot
    with Store.open(target, read_only=True) as reader:
        assert count(reader, "otel_traces") == 3
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []
    with pytest.raises(StoreError, match="onto itself"):
        fresh_store.snapshot(fresh_store.path)


def test_a_file_that_changes_during_the_copy_is_snapshotted_by_sql_instead(
    fresh_store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The byte copy is kept only if the store's file did not change while it was copied."""
    from recurscope.pipeline.store import database

    fresh_store.write_spans([row(1), row(2)], source="s", format="t")
    copied = database._copy_range
    copies: list[int] = []

    def copy_while_touched(source: int, target: int, size: int) -> None:
        copies.append(size)
        copied(source, target, size)
        os.utime(fresh_store.path, ns=(0, os.stat(fresh_store.path).st_mtime_ns + 1))

    monkeypatch.setattr(database, "_copy_range", copy_while_touched)
    fast = Store._copy_checkpointed_file
    kept: list[bool] = []

    def spy(store: Store, partial: Path) -> bool:
        kept.append(fast(store, partial))
        return kept[-1]

    monkeypatch.setattr(Store, "_copy_checkpointed_file", spy)
    target = fresh_store.snapshot(tmp_path / "snap.duckdb")
    assert copies, "the byte copy was tried first"
    assert kept == [False], "and dropped, since the file changed meanwhile"
    with Store.open(target, read_only=True) as reader:
        assert count(reader, "otel_traces") == 2  # the SQL copy, whole
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_describe_process_names_what_it_can() -> None:
    """Lock messages name this process, a recurscope command, or fall back to the pid."""
    from recurscope.pipeline.store.database import describe_process

    assert describe_process(os.getpid()) == "this process"
    assert describe_process(None) == "another process"
    assert describe_process(2**22 + 12345) == f"process {2**22 + 12345}"


def test_bulk_writes_gather_commits_then_checkpoint_and_restore_settings(
    tmp_path: Path,
) -> None:
    """During a bulk load commits stay in the WAL (still durable); afterwards one
    checkpoint folds them in and DuckDB's own settings are back."""
    from recurscope.pipeline.testing import synthetic_lines

    db = tmp_path / "bulk.duckdb"
    wal = tmp_path / "bulk.duckdb.wal"
    source = tmp_path / "lines.jsonl"
    source.write_bytes(b"".join(synthetic_lines(3_000, spans_per_line=50)))

    def setting(store: Store, name: str) -> str:
        return str(store.scalar(f"SELECT current_setting('{name}')"))

    with Store.open(db) as store:
        before = setting(store, "checkpoint_threshold"), setting(store, "memory_limit")
        with store.bulk_writes(wal_bytes=64 * 1024**2, memory_bytes=256 * 1024**2):
            assert setting(store, "memory_limit") == "256.0 MiB"
            run = store.begin_ingest(str(source), "otlp-json")
            from recurscope.pipeline.decode.formats.otlp_json import decode_otlp_json_lines
            from recurscope.pipeline.records import DEFAULT_LIMITS, PendingRecord

            lines = source.read_bytes().splitlines(keepends=True)
            for start in range(0, len(lines), 20):
                records = [
                    PendingRecord(line, start + i + 1, 0)
                    for i, line in enumerate(lines[start : start + 20])
                ]
                rows, _ = decode_otlp_json_lines(records, DEFAULT_LIMITS)
                run.write(rows)
            run.finish("ok")
            # 3,000 spans of about 1 KB: committed, but not yet checkpointed.
            assert wal.exists() and wal.stat().st_size > 1_000_000
        assert (setting(store, "checkpoint_threshold"), setting(store, "memory_limit")) == before
        assert not wal.exists() or wal.stat().st_size == 0
        assert store.scalar("SELECT count(*) FROM otel_traces") == 3_000
