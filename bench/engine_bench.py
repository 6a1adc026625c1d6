"""The same evidence on DuckDB and on ClickHouse (chdb, in-process): time per step and ratio.

    .venv/bin/python bench/engine_bench.py                       # 100k, 300k, 1M spans
    .venv/bin/python bench/engine_bench.py --spans 50000 --repeat 1

For each size, one synthetic workload (``sql/fixtures/_synthetic_spans.sql``,
~47 spans per session, 61% recurscope spans) goes into a DuckDB file with the
contract table and into a chdb store (on disk) with the Collector exporter's
``otel_traces``; then, on both engines in the same run:

- **full refresh**: every span and session model rebuilt (median of repeats);
- **incremental**: 1% more spans (new sessions, later in time), refreshed
  (DuckDB: delete + insert per session; ClickHouse: the touched day
  partitions rebuilt and swapped in);
- **read**: the verdict report from the stored evidence (ClickHouse: the
  evidence tables read into DuckDB first, as ``--engine clickhouse`` does).

Ratios are chdb / DuckDB of medians measured in the same run on the same
machine, so a busy machine moves both. Loading spans is not timed (the
Collector writes them on a real deployment).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import duckdb

from recurscope.pipeline.evidence import clickhouse as ch
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.testing import create_otel_traces_table, insert_synthetic_spans
from recurscope.pipeline.verdict.report import build_report
from recurscope.pipeline.verdict.rule import default_preregistration_path

SPANS_PER_SESSION = 47


def _timed(step: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _report(con: duckdb.DuckDBPyConnection) -> None:
    build_report(
        con, default_preregistration_path(), detector_quality_path=None, include_simulated=True
    )


def run_size(spans_wanted: int, repeat: int, folder: Path) -> dict[str, float]:
    sessions = max(10, spans_wanted // SPANS_PER_SESSION)
    step = max(1, sessions // 100)
    con = duckdb.connect(str(folder / f"bench-{spans_wanted}.duckdb"))
    create_otel_traces_table(con)
    spans = insert_synthetic_spans(con, sessions=sessions, seed=7)
    con.execute("CHECKPOINT")
    client = ch.connect(f"chdb://{folder / f'ch-{spans_wanted}'}")
    ch.create_otel_traces(client)
    ch.load_spans(client, con)
    evidence.refresh(con)  # warm both (first refresh creates tables)
    ch.refresh(client)

    out: dict[str, float] = {"spans": float(spans)}
    out["duckdb_full"] = _timed(lambda: evidence.refresh(con, full=True), repeat)
    out["chdb_full"] = _timed(lambda: ch.refresh(client, full=True), repeat)

    duck_inc, ch_inc = [], []
    first = sessions
    for _ in range(repeat):
        loaded = con.execute("SELECT count(*) FROM otel_traces").fetchall()[0][0]
        insert_synthetic_spans(con, sessions=step, seed=7, first_session=first)
        first += step
        started = time.perf_counter()
        evidence.refresh(con)
        duck_inc.append(time.perf_counter() - started)
        ch.load_spans(client, con, where=f"rowid >= {loaded}")  # rows appended since
        started = time.perf_counter()
        ch.refresh(client)
        ch_inc.append(time.perf_counter() - started)
    out["duckdb_incremental"] = statistics.median(duck_inc)
    out["chdb_incremental"] = statistics.median(ch_inc)
    differences = ch.evidence_differences(con, client)
    if differences:
        raise SystemExit(f"engines disagree: {differences}")

    out["duckdb_read"] = _timed(lambda: _report(con), repeat)

    def read_clickhouse() -> None:
        replica = ch.evidence_replica(client)
        try:
            _report(replica)
        finally:
            replica.close()

    out["chdb_read"] = _timed(read_clickhouse, repeat)
    client.close()
    con.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--spans", type=int, nargs="+", default=[100_000, 300_000, 1_000_000], help="sizes"
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("| spans | step | DuckDB s | chdb s | chdb / DuckDB |")
    print("|---:|---|---:|---:|---:|")
    results = []
    with tempfile.TemporaryDirectory(prefix="engine-bench-") as folder:
        for size in args.spans:
            result = run_size(size, args.repeat, Path(folder))
            results.append(result)
            for step in ("full", "incremental", "read"):
                duck, click = result[f"duckdb_{step}"], result[f"chdb_{step}"]
                print(
                    f"| {int(result['spans']):,} | {step} | {duck:.2f} | {click:.2f} "
                    f"| {click / duck:.2f} |",
                    flush=True,
                )
    if len(results) > 1:
        a, b = results[0], results[-1]
        growth = b["spans"] / a["spans"]
        for engine in ("duckdb", "chdb"):
            factor = b[f"{engine}_full"] / a[f"{engine}_full"]
            print(
                f"\n{engine}: full refresh x{factor:.1f} for x{growth:.1f} spans "
                f"({a['spans']:,.0f} -> {b['spans']:,.0f})",
                end="",
            )
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
