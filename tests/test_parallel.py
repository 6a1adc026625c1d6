"""Decoding in worker processes: the same tables as decoding in-process, in file order,
with resume points that survive crashes, and a fallback when a worker dies."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from recurscope.pipeline import Store, ingest
from recurscope.pipeline.decode.formats.otlp_json import decode_otlp_json_lines
from recurscope.pipeline.ingest import parallel as parallel_module
from recurscope.pipeline.ingest.parallel import DecoderPool, WorkerDied, decode_batch
from recurscope.pipeline.records import DEFAULT_LIMITS, PendingRecord, Reason
from recurscope.pipeline.store import database as store_module
from recurscope.pipeline.testing import decoder_worker_pids, synthetic_lines

pytestmark = pytest.mark.integration

SPANS = "SELECT * EXCLUDE (IngestId) FROM otel_traces ORDER BY TraceId, SpanId"
QUARANTINE = (
    "SELECT * EXCLUDE (IngestId, QuarantinedAt) FROM quarantine "
    "ORDER BY Line, ByteOffset, SpanIndex, Reason, Detail"
)
COUNTS = (
    "SELECT sum(RecordsRead), sum(SpansAccepted), sum(RowsQuarantined), "
    "sum(DuplicatesSkipped) FROM ingest_log"
)


def mixed_source(path: Path, spans: int = 3_000) -> Path:
    """JSON lines with every kind of trouble between good lines: broken JSON, a bad id,
    a span repeated from an earlier line, a blank line, and a cut-off last line."""
    good = list(synthetic_lines(spans, spans_per_line=25, seed=3))
    with path.open("wb") as handle:
        for number, line in enumerate(good):
            handle.write(line)
            if number % 17 == 5:
                handle.write(b'{"resourceSpans": [ not json\n')
            if number % 23 == 7:
                handle.write(line.replace(b'"traceId":"', b'"traceId":"zz', 1))
            if number % 29 == 11:
                handle.write(good[number - 3])  # already stored: duplicates
            if number % 31 == 0:
                handle.write(b"\n")
        handle.write(good[0][: len(good[0]) // 2])
    return path


def tables(db: Path) -> tuple[list[tuple[object, ...]], ...]:
    with Store.open(db, read_only=True) as store:
        return store.query(SPANS), store.query(QUARANTINE), store.query(COUNTS)


def run(path: Path, db: Path, **options: Any) -> None:
    with Store.open(db) as store:
        report = ingest([path], store, progress=False, **options)
    assert not report.failed


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mixed_source(tmp_path_factory.mktemp("parallel") / "mixed.jsonl")


@pytest.fixture(scope="module")
def inline_tables(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("inline") / "inline.duckdb"
    run(source, db, workers=0, batch_size=300)
    return tables(db)


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_store_exactly_what_one_process_stores(
    source: Path, inline_tables: Any, tmp_path: Path, workers: int
) -> None:
    db = tmp_path / "parallel.duckdb"
    run(source, db, workers=workers, parallel_after=0, batch_size=300)
    spans, quarantine, counts = tables(db)
    assert spans == inline_tables[0]
    assert quarantine == inline_tables[1]
    assert counts == inline_tables[2]
    records, accepted, quarantined, duplicates = counts[0]
    assert records == accepted + quarantined + duplicates
    assert duplicates > 0 and quarantined > 0
    reasons = {row[4] for row in quarantine}
    assert {Reason.INVALID_JSON, Reason.INVALID_ID, Reason.TRUNCATED_JSON} <= reasons


def test_a_crash_mid_run_resumes_from_the_last_batch_committed_in_order(
    source: Path, inline_tables: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits happen in file order, each with its resume point: an interrupted run
    plus a rerun store what one clean run stores, with nothing twice."""
    db = tmp_path / "crashed.duckdb"
    real = store_module.IngestRun.write_prepared
    calls = 0

    def crash_on_fourth(self: store_module.IngestRun, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(store_module.IngestRun, "write_prepared", crash_on_fourth)
    with pytest.raises(KeyboardInterrupt), Store.open(db) as store:
        ingest([source], store, progress=False, workers=1, parallel_after=0, batch_size=300)
    monkeypatch.undo()
    with Store.open(db) as store:
        stored = store.scalar("SELECT count(*) FROM otel_traces")
        report = ingest([source], store, progress=False, workers=1, parallel_after=0)
    assert 0 < int(str(stored)) < len(inline_tables[0])
    assert report.sources[0].resumed_from is not None
    spans, quarantine, _ = tables(db)
    assert spans == inline_tables[0]
    assert quarantine == inline_tables[1]


def test_a_dead_worker_is_replaced_by_decoding_here(
    source: Path, inline_tables: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If a worker dies (say, the OOM killer), its batches are decoded in-process instead."""
    real_submit = DecoderPool.submit
    submitted = 0

    def submit_then_kill(self: DecoderPool, *args: Any, **kwargs: Any) -> Any:
        nonlocal submitted
        future = real_submit(self, *args, **kwargs)
        submitted += 1
        if submitted == 2:
            for worker in self._started:
                worker.process.kill()
        return future

    monkeypatch.setattr(DecoderPool, "submit", submit_then_kill)
    db = tmp_path / "killed.duckdb"
    run(source, db, workers=1, parallel_after=0, batch_size=300)
    assert submitted >= 2
    spans, quarantine, counts = tables(db)
    assert spans == inline_tables[0]
    assert quarantine == inline_tables[1]
    assert counts == inline_tables[2]


def test_workers_that_cannot_start_leave_decoding_here(
    source: Path, inline_tables: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cannot_start(self: Any) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(parallel_module._Worker, "__init__", cannot_start)
    db = tmp_path / "nofork.duckdb"
    run(source, db, workers=2, parallel_after=0, batch_size=300)
    assert tables(db) == inline_tables


def test_a_worker_runs_the_decoder_and_reports_its_death() -> None:
    records = [
        PendingRecord(line, number + 1, 0)
        for number, line in enumerate(synthetic_lines(40, spans_per_line=10))
    ]
    records.append(PendingRecord(b"{ nope\n", 5, 0))
    here = decode_batch(decode_otlp_json_lines, records, DEFAULT_LIMITS)
    with DecoderPool(1) as pool:
        there = pool.submit(decode_otlp_json_lines, records, DEFAULT_LIMITS).result(timeout=60)
        assert there.records == here.records == 41
        assert there.prepared.table is not None and here.prepared.table is not None
        assert there.prepared.table.equals(here.prepared.table)
        assert [r.reason for r in there.rejections] == [Reason.INVALID_JSON]
        worker = pool._started[0]
        worker.process.kill()
        worker.process.wait(timeout=30)
        with pytest.raises(WorkerDied):
            pool.submit(decode_otlp_json_lines, records, DEFAULT_LIMITS).result(timeout=60)


def test_frames_round_trip() -> None:
    stream = io.BytesIO()
    parallel_module._write_frame(stream, ("ok", [1, "two", b"3"]))
    parallel_module._write_frame(stream, None)
    stream.seek(0)
    assert parallel_module._read_frame(stream) == ("ok", [1, "two", b"3"])
    assert parallel_module._read_frame(stream) is None
    with pytest.raises(EOFError):
        parallel_module._read_frame(stream)
    cut = io.BytesIO(stream.getvalue()[:-3])
    parallel_module._read_frame(cut)
    with pytest.raises(EOFError):
        parallel_module._read_frame(cut)


def test_small_inputs_start_no_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    real_submit = DecoderPool.submit

    def counting(self: DecoderPool, *args: Any, **kwargs: Any) -> Any:
        started.append(1)
        return real_submit(self, *args, **kwargs)

    monkeypatch.setattr(DecoderPool, "submit", counting)
    path = tmp_path / "small.jsonl"
    path.write_bytes(b"".join(synthetic_lines(2_000, spans_per_line=20)))
    run(path, tmp_path / "small.duckdb", workers=1)  # default threshold: 48 MiB
    assert not started


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_ingest(tmp_path: Path) -> None:
    source = tmp_path / "big.jsonl"
    with source.open("wb") as handle:
        for line in synthetic_lines(40_000, spans_per_line=50, seed=9):
            handle.write(line)
    before = decoder_worker_pids()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "recurscope.cli",
            "ingest",
            "--db",
            str(tmp_path / "store.duckdb"),
            "--workers",
            "1",
            "--parallel-after",
            "0",
            "--batch-size",
            "500",
            "--no-progress",
            str(source),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not decoder_worker_pids() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = decoder_worker_pids() - before
    assert workers, "the ingest never started a worker"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    deadline = time.monotonic() + 10
    while workers & decoder_worker_pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not workers & decoder_worker_pids()


def test_ingest_command_accepts_worker_flags(tmp_path: Path) -> None:
    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"".join(synthetic_lines(600, spans_per_line=20)))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "recurscope.cli",
            "ingest",
            "--db",
            str(tmp_path / "cli.duckdb"),
            "--workers",
            "1",
            "--parallel-after",
            "0",
            "--batch-size",
            "100",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "600 spans accepted" in result.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "recurscope.cli", "ingest", "--workers", "-1", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert bad.returncode != 0
    assert "workers must be 0 or more" in bad.stderr
