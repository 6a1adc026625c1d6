"""Evidence refresh benchmark: full refresh per million spans, incremental after +1%.

    python bench/evidence_bench.py                  # 1,000,000 spans, 5 repeats
    python bench/evidence_bench.py --spans 200000   # quicker
    python bench/evidence_bench.py --markdown       # a table for docs/evidence.md

Builds a fresh DuckDB file with synthetic spans (``sql/fixtures/_synthetic_spans.sql``,
about 47 spans per session, 61% of them recurscope spans), times full
refreshes, then appends 1% more spans (new sessions, later in time) and times
the incremental refresh, and times a report-style evidence view with its
session bootstrap. Target: incremental <= 10% of a full refresh (medians).
Times are wall time including the commit, so a checkpoint DuckDB runs at
commit is paid by whichever refresh triggers it; the means show that too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import duckdb

from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence import views
from recurscope.pipeline.testing import create_otel_traces_table, insert_synthetic_spans
from recurscope.pipeline.verdict import stats as stats

SPANS_PER_SESSION = 47  # measured average of the synthetic generator


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=1_000_000, help="spans in the base data")
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions of each step")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    options = parser.parse_args()

    sessions = max(1, options.spans // SPANS_PER_SESSION)
    step = max(1, sessions // 100)  # 1% more spans per incremental step
    with tempfile.TemporaryDirectory() as folder:
        con = duckdb.connect(str(Path(folder) / "bench.duckdb"))
        create_otel_traces_table(con)
        started = time.perf_counter()
        spans = insert_synthetic_spans(con, sessions=sessions, seed=7)
        con.execute("CHECKPOINT")
        generate_seconds = time.perf_counter() - started

        # RefreshResult.seconds is wall time including the commit (and any
        # checkpoint DuckDB runs at commit), so both paths pay their writes.
        full: list[float] = []
        for _ in range(options.repeat):
            full.append(evidence.refresh(con, full=True).seconds)

        incremental: list[float] = []
        added = 0
        next_session = sessions
        for _ in range(options.repeat):
            added += insert_synthetic_spans(con, sessions=step, seed=7, first_session=next_session)
            next_session += step
            result = evidence.refresh(con)
            assert result.mode == "incremental", result
            incremental.append(result.seconds)

        view_seconds: list[float] = []
        boot_seconds: list[float] = []
        for _ in range(options.repeat):
            started = time.perf_counter()
            with views.EvidenceView(con) as view:
                matrix = view.session_matrix()
                view_seconds.append(time.perf_counter() - started)
                started = time.perf_counter()
                stats.bootstrap_ratios(
                    matrix.numerators, matrix.denominators, resamples=2000, seed=1
                )
                boot_seconds.append(time.perf_counter() - started)
        recurscope_spans = evidence._scalar_int(
            con,
            "SELECT count(*) FROM otel_traces WHERE SpanName LIKE 'recurscope.%'",
        )
        con.close()

    full_s = _median(full)
    inc_s = _median(incremental)
    per_million = full_s / (spans / 1_000_000)
    rows = [
        ("spans in otel_traces (base)", f"{spans:,}"),
        ("of which recurscope spans (after the increments)", f"{recurscope_spans:,}"),
        ("sessions (base)", f"{sessions:,}"),
        ("synthetic data generation", f"{generate_seconds:.1f} s"),
        ("full refresh (median)", f"{full_s:.2f} s"),
        ("full refresh per million spans", f"{per_million:.2f} s"),
        ("incremental refresh after +1% spans (median)", f"{inc_s:.2f} s"),
        ("incremental / full (medians)", f"{inc_s / full_s:.1%}"),
        (
            "incremental / full (means: DuckDB checkpoints at some commits)",
            f"{statistics.mean(incremental) / statistics.mean(full):.1%}",
        ),
        ("evidence view for a report (median)", f"{_median(view_seconds):.2f} s"),
        ("session bootstrap, 2,000 resamples, all criteria", f"{_median(boot_seconds):.2f} s"),
    ]
    if options.markdown:
        print(f"| measure ({datetime.now():%Y-%m-%d}) | value |\n| --- | --- |")
        for name, value in rows:
            print(f"| {name} | {value} |")
    else:
        width = max(len(name) for name, _ in rows)
        for name, value in rows:
            print(f"{name:<{width}}  {value}")
        print(f"full runs: {', '.join(f'{s:.2f}' for s in full)}")
        print(f"incremental runs: {', '.join(f'{s:.2f}' for s in incremental)}")
    target_met = inc_s <= 0.10 * full_s
    print(f"target incremental <= 10% of full: {'met' if target_met else 'NOT met'}")
    return 0 if target_met else 1


if __name__ == "__main__":
    sys.exit(main())
