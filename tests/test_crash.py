"""Crash consistency: `kill -9` never loses an acknowledged span nor stores anything twice."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from recurscope.pipeline import Store
from recurscope.pipeline.ingest.drainer import Drainer
from recurscope.pipeline.ingest.receiver import Receiver, ReceiverConfig
from recurscope.pipeline.ingest.spool import Spool
from recurscope.pipeline.testing import ReceiverProcess, decoder_worker_pids, synthetic_lines

PROTO = {"Content-Type": "application/x-protobuf"}
Ids = set[tuple[str, str]]


def request_spans(count: int, name: str) -> tuple[list[ReadableSpan], Ids, Ids]:
    """``count`` SDK spans; the last one ends before it starts (so it is quarantined).

    Returns the spans, the ids of the good ones and the id of the bad one.
    """
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "crash"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("crash")
    start = 1_700_000_000_000_000_000
    for index in range(count):
        span = tracer.start_span(f"{name}-{index}", start_time=start + index)
        span.end(end_time=start + index + (-5 if index == count - 1 else 100))
    provider.shutdown()
    spans = list(exporter.get_finished_spans())
    keys = [(f"{s.context.trace_id:032x}", f"{s.context.span_id:016x}") for s in spans if s.context]
    return spans, set(keys[:-1]), {keys[-1]}


def contents(db: Path, sql: str) -> list[tuple[object, ...]]:
    with Store.open(db, read_only=True) as store:
        rows: list[tuple[object, ...]] = store.query(sql)
    return rows


def assert_reconciled(db: Path) -> None:
    """ingest_log agrees with the tables: every stored span and quarantine row counted once."""
    ((spans, accepted),) = contents(
        db,
        "SELECT (SELECT count(*) FROM otel_traces), "
        "(SELECT coalesce(sum(SpansAccepted), 0) FROM ingest_log)",
    )
    assert spans == accepted
    ((rows, quarantined),) = contents(
        db,
        "SELECT (SELECT count(*) FROM quarantine), "
        "(SELECT coalesce(sum(RowsQuarantined), 0) FROM ingest_log)",
    )
    assert rows == quarantined


# -- the receiver -----------------------------------------------------------------------------------


class Round:
    """Four clients sending to one server until it is killed right after the Nth 200."""

    def __init__(self, server: ReceiverProcess, name: str, kill_after: int) -> None:
        self.server = server
        self.name = name
        self.kill_after = kill_after
        self.good: Ids = set()
        self.bad: Ids = set()
        self.acknowledged = 0
        self.killed = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        threads = [threading.Thread(target=self.send, args=(w,)) for w in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)

    def send(self, worker: int) -> None:
        with requests.Session() as session:
            for index in range(500):
                if self.killed.is_set():
                    return
                spans, ok, rejected = request_spans(20, f"{self.name}w{worker}i{index}")
                body = encode_spans(spans).SerializeToString()
                try:
                    response = session.post(
                        self.server.endpoint, data=body, headers=PROTO, timeout=10
                    )
                except requests.RequestException:
                    return  # killed mid-request: not acknowledged
                if response.status_code != 200:
                    continue
                with self.lock:
                    self.good.update(ok)
                    self.bad.update(rejected)
                    self.acknowledged += 1
                    if self.acknowledged == self.kill_after:
                        self.server.kill()  # right after the 200: nothing flushed on purpose
                        self.killed.set()


@pytest.mark.integration
@pytest.mark.slow
def test_acknowledged_spans_survive_kill_9_of_the_receiver(tmp_path: Path) -> None:
    """Three rounds of: send from four clients, `kill -9` right after a 200, restart.
    Every acknowledged span is stored once, every acknowledged bad span quarantined once."""
    db = tmp_path / "r.duckdb"
    good: Ids = set()
    bad: Ids = set()
    for round_number in range(3):
        with ReceiverProcess(db) as server:
            sending = Round(server, f"r{round_number}", kill_after=25 + 10 * round_number)
            sending.run()
            assert sending.killed.is_set()
            good |= sending.good
            bad |= sending.bad
    with ReceiverProcess(db) as server:
        assert server.stop() == 0
    stored = contents(db, "SELECT TraceId, SpanId FROM otel_traces")
    assert len(stored) == len(set(stored)), "a span was stored twice"
    assert good <= {(str(t), str(s)) for t, s in stored}, "an acknowledged span was lost"
    quarantined = contents(db, "SELECT TraceId, SpanId FROM quarantine")
    assert len(quarantined) == len(set(quarantined)), "a quarantine row was stored twice"
    assert bad <= {(str(t), str(s)) for t, s in quarantined}
    assert_reconciled(db)
    assert not any(db.with_suffix(".spool").glob("*.seg"))


@pytest.mark.parametrize("crash", ["before the segment is deleted", "before its run is finished"])
def test_a_crash_after_a_commit_replays_nothing_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crash: str
) -> None:
    """Spans, quarantine rows and the resume point commit together, so replaying a segment
    that was already stored adds nothing, quarantine included."""
    config = ReceiverConfig(db_path=tmp_path / "r.duckdb", port=0)
    receiver = Receiver(config)
    receiver.start()
    try:
        for index in range(3):
            spans, _, _ = request_spans(10, f"req{index}")
            body = encode_spans(spans).SerializeToString()
            assert requests.post(receiver.url, data=body, headers=PROTO, timeout=10).ok
        if crash == "before the segment is deleted":

            def forget_but_keep_file(self: Spool, seq: int) -> None:
                with self._lock:
                    self._segments.pop(seq, None)

            monkeypatch.setattr(Spool, "remove", forget_but_keep_file)
        else:
            monkeypatch.setattr(Drainer, "_finish_segment", lambda *args: None)
    finally:
        receiver.stop()
    monkeypatch.undo()
    assert list(config.spool_path.glob("*.seg")), "the simulated crash left the segment"
    spans_before = contents(config.db_path, "SELECT * FROM otel_traces ORDER BY SpanId")
    quarantine_before = contents(config.db_path, "SELECT * EXCLUDE (QuarantinedAt) FROM quarantine")
    assert len(spans_before) == 27 and len(quarantine_before) == 3

    again = Receiver(config)
    again.start()
    assert again.stop() is True
    assert contents(config.db_path, "SELECT * FROM otel_traces ORDER BY SpanId") == spans_before
    assert (
        contents(config.db_path, "SELECT * EXCLUDE (QuarantinedAt) FROM quarantine")
        == quarantine_before
    )
    assert not list(config.spool_path.glob("*.seg"))
    assert contents(config.db_path, "SELECT DISTINCT Status FROM ingest_log") == [("ok",)]
    assert_reconciled(config.db_path)


# -- ingest -------------------------------------------------------------------------------------------

SPANS = "SELECT * EXCLUDE (IngestId) FROM otel_traces ORDER BY TraceId, SpanId"
QUARANTINE = (
    "SELECT * EXCLUDE (IngestId, QuarantinedAt) FROM quarantine "
    "ORDER BY Line, ByteOffset, SpanIndex, Reason, Detail"
)


def write_source(path: Path, spans: int) -> Path:
    """OTLP JSON lines with a malformed line every 40 lines (quarantine content too)."""
    with path.open("wb") as handle:
        for number, line in enumerate(synthetic_lines(spans, spans_per_line=50, seed=7)):
            handle.write(line)
            if number % 40 == 39:
                handle.write(b'{"resourceSpans": [ this is not json\n')
    return path


def ingest_command(db: Path, source: Path, extra: tuple[str, ...] = ()) -> list[str]:
    return [
        sys.executable,
        "-m",
        "recurscope.cli",
        "ingest",
        "--db",
        str(db),
        "--batch-size",
        "500",
        "--no-progress",
        *extra,
        str(source),
    ]


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize(
    "extra",
    [(), ("--workers", "1", "--parallel-after", "0")],
    ids=["one-process", "decoder-workers"],
)
def test_ingest_killed_at_20_random_points_ends_exactly_like_a_clean_run(
    tmp_path: Path, extra: tuple[str, ...]
) -> None:
    """SIGKILL `recurscope ingest` at 20 seeded random moments (startup, mid-batch, commit,
    snapshot); re-running it leaves exactly the tables a clean run leaves. With decoder
    workers, batches decoded but not yet committed are re-read, and the workers die too."""
    source = write_source(tmp_path / "big.jsonl", 30_000)
    clean = tmp_path / "clean.duckdb"
    workers_before = decoder_worker_pids()
    started = time.monotonic()
    subprocess.run(
        ingest_command(clean, source, extra), check=True, capture_output=True, timeout=120
    )
    clean_seconds = time.monotonic() - started

    # Startup (interpreter, imports, creating the store, the first batch's one-off
    # costs) is timed on a one-line file, so kill points can be placed both in it and
    # in the ingest proper.
    tiny = tmp_path / "tiny.jsonl"
    tiny.write_bytes(next(synthetic_lines(50, spans_per_line=50, seed=8)))
    started = time.monotonic()
    subprocess.run(
        ingest_command(tmp_path / "tiny.duckdb", tiny), check=True, capture_output=True, timeout=120
    )
    startup = min(time.monotonic() - started, clean_seconds / 2)

    crashed = tmp_path / "crashed.duckdb"
    rng = random.Random(20261129)
    # A resumed run starts faster than the timed one (the store exists), so kills up
    # to 1.2x that time land in startup, opening, the first batches and commits, and
    # each interrupted run stores a slice: the kill points spread over the whole file.
    delays = [rng.uniform(0.05, 1.2 * startup) for _ in range(20)]
    finished_early = 0
    for delay in delays:
        process = subprocess.Popen(
            ingest_command(crashed, source, extra),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        if process.poll() is not None:
            finished_early += 1
        process.kill()
        process.wait(timeout=30)
    final = subprocess.run(
        ingest_command(crashed, source, extra), capture_output=True, text=True, timeout=120
    )
    assert final.returncode == 0, final.stderr
    assert finished_early < 20, "no run was interrupted: the file is too small"

    assert contents(crashed, SPANS) == contents(clean, SPANS)
    assert contents(crashed, QUARANTINE) == contents(clean, QUARANTINE)
    assert len(contents(crashed, "SELECT 1 FROM otel_traces")) == 30_000
    assert_reconciled(crashed)
    deadline = time.monotonic() + 10
    while decoder_worker_pids() - workers_before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not decoder_worker_pids() - workers_before, "a decoder outlived its ingest"
