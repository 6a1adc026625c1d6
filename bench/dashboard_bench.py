"""Dashboard page benchmark: what each page queries, on stores of 1 M and 4 M spans.

    python bench/dashboard_bench.py                           # 1,000,000 and 4,000,000 spans
    python bench/dashboard_bench.py --spans 50000 200000      # quicker
    python bench/dashboard_bench.py --markdown --keep --workdir /tmp/rs-bench

Builds a real store per size the way a writer leaves it: the production
schema (``Store.open``), synthetic spans (``sql/fixtures/_synthetic_spans.sql``, about
47 spans per session), a full evidence refresh and the kept headline
intervals (``pipeline/verdict/headline.py``). Stores are cached in ``--workdir``
keyed by size, so reruns skip the generation (minutes at 4 M spans).

Then times, per page, what the page loads: a fresh ``read_connection`` (the
store opened as the dashboard opens it, and closed), ``store_overview`` (every
page's header) and the page's functions of ``recurscope.dashboards.queries``.
Rounds run every page on every size in turn, so a burst of other work on the
shared machine lands on all of them rather than on one; each figure is the
median of ``--repeat`` rounds. Also times the verdict with the kept headline
intervals ignored (what they save), the pages under a filter (the
exploratory view: the verdict recomputes its bootstrap), the Compare page
(on demand) and ``recurscope demo --prepare-only`` end to end.

Target: every page <= 1 s (median) at 1 M and 4 M spans, and no page growing
with the spans the way a raw-span scan does (4x the spans, 4x the time).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final
from unittest import mock

import duckdb

from recurscope.dashboards import queries
from recurscope.dashboards.queries import Filters
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence.views import EvidenceView
from recurscope.pipeline.store.database import Store
from recurscope.pipeline.store.locking import read_connection
from recurscope.pipeline.testing import create_otel_traces_table, insert_synthetic_spans
from recurscope.pipeline.verdict import report as report_module
from recurscope.pipeline.verdict.headline import load_headline_intervals, store_headline_intervals
from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration

SPANS_PER_SESSION: Final = 47  # measured average of the synthetic generator
DEFAULT_SIZES: Final = (1_000_000, 4_000_000)
SEED: Final = 1
# The bench stores hold synthetic spans (origin simulated): read them as the demo
# does, with simulated spans included; observed-only would read nothing.
EVERYTHING: Final = Filters(include_simulated=True)
FILTER: Final = Filters(role="planner", include_simulated=True)
COMPARE_BY: Final = "prompt_version"
GENERATE_BATCH: Final = 20_000  # sessions per generator statement (~940,000 spans)
MEMORY_LIMIT: Final = "3GB"  # DuckDB's own limit while building (it spills past it)
TARGET_SECONDS: Final = 1.0

Connection = duckdb.DuckDBPyConnection
PageLoad = Callable[[Connection, Path], object]


# ---------------------------------------------------------------------------
# Stores


def _contract_columns(con: Connection, table: str) -> list[str]:
    rows = con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index",
        [table],
    ).fetchall()
    return [f'"{name}"' for (name,) in rows]


def _store_ready(con: Connection) -> bool:
    """True when the evidence is current and the headline intervals are kept."""
    prereg = load_preregistration(default_preregistration_path())
    try:
        with EvidenceView(con, min_other_sessions=prereg.min_other_sessions) as view:
            return (
                not view.stale_reason
                and view.stored_session_models
                and load_headline_intervals(view, prereg) is not None
            )
    except Exception:
        return False


def _finish(con: Connection) -> None:
    """What every writer does after adding spans: refresh the evidence, keep the headline."""
    evidence.refresh(con, full=True)
    store_headline_intervals(con)


def build_store(path: Path, spans: int, *, log: Callable[[str], None] = print) -> None:
    """Create the store at ``path`` with about ``spans`` synthetic spans, evidence and headline.

    Spans are generated in a temporary DuckDB file with the contract table,
    then copied into the store's ``otel_traces`` (which adds two NOT NULL
    bookkeeping columns) through a read-only attach.
    """
    sessions = max(1, spans // SPANS_PER_SESSION)
    building = path.with_name(path.stem + ".building.duckdb")
    raw = path.with_name(path.stem + ".raw.duckdb")
    for leftover in (building, raw):
        leftover.unlink(missing_ok=True)
        leftover.with_name(leftover.name + ".wal").unlink(missing_ok=True)
    started = time.perf_counter()
    tmp = duckdb.connect(str(raw))
    try:
        tmp.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        create_otel_traces_table(tmp)
        for first in range(0, sessions, GENERATE_BATCH):
            insert_synthetic_spans(
                tmp, sessions=min(GENERATE_BATCH, sessions - first), seed=SEED, first_session=first
            )
        columns = ", ".join(_contract_columns(tmp, "otel_traces"))
    finally:
        tmp.close()
    log(f"  generated {sessions:,} sessions in {time.perf_counter() - started:.0f} s")
    with Store.open(building) as store:
        con = store.connection
        con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        con.execute(f"ATTACH '{raw}' AS raw (READ_ONLY)")
        con.execute(
            f"INSERT INTO otel_traces ({columns}, ScopeAttributes, IngestId) "
            f"SELECT {columns}, MAP {{}}, 0 FROM raw.otel_traces"
        )
        con.execute("DETACH raw")
        copied = time.perf_counter()
        _finish(con)
        log(f"  evidence refresh and headline intervals in {time.perf_counter() - copied:.0f} s")
    raw.unlink()
    building.rename(path)


def store_for(workdir: Path, spans: int, *, log: Callable[[str], None] = print) -> Path:
    """The cached store of ``spans`` spans in ``workdir``, built or brought up to date first."""
    path = workdir / f"store-{spans}.duckdb"
    if path.exists():
        with Store.open(path) as store:
            if not _store_ready(store.connection):
                log(f"{path.name}: evidence or headline out of date, refreshing")
                store.connection.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
                _finish(store.connection)
        return path
    log(f"{path.name}: building ({spans:,} spans)")
    build_store(path, spans, log=log)
    return path


@dataclass(frozen=True, slots=True)
class StoreInfo:
    """What a benchmark store holds."""

    spans: int
    evidence_spans: int
    sessions: int
    megabytes: float


def store_info(path: Path) -> StoreInfo:
    with read_connection(path) as view:
        overview = queries.store_overview(view.connection)
    return StoreInfo(
        overview.spans, overview.evidence_spans, overview.sessions, path.stat().st_size / 1e6
    )


# ---------------------------------------------------------------------------
# Pages


@contextmanager
def without_kept_intervals() -> Iterator[None]:
    """The verdict as it was before writers kept the headline intervals: always bootstrapped."""
    with mock.patch.object(report_module, "load_headline_intervals", lambda *_: None):
        yield


def _verdict(flt: Filters) -> PageLoad:
    def load(con: Connection, path: Path) -> object:
        queries.store_overview(con)
        return queries.verdict_data(con, flt, default_preregistration_path(), None, str(path))

    return load


def _verdict_unkept(con: Connection, path: Path) -> object:
    with without_kept_intervals():
        return _verdict(EVERYTHING)(con, path)


def _verdict_query(con: Connection, path: Path) -> object:
    return queries.verdict_data(con, EVERYTHING, default_preregistration_path(), None, str(path))


def _verdict_query_unkept(con: Connection, path: Path) -> object:
    with without_kept_intervals():
        return _verdict_query(con, path)


def _page(function: Callable[[Connection, Filters], object], flt: Filters) -> PageLoad:
    def load(con: Connection, path: Path) -> object:
        queries.store_overview(con)
        return function(con, flt)

    return load


def _boilerplate(con: Connection, flt: Filters) -> object:
    return queries.boilerplate_data(con, flt, default_preregistration_path())


def _delegation(con: Connection, flt: Filters) -> object:
    data = queries.delegation_data(con, flt)
    if not data.traces.is_empty():
        queries.delegation_tree(con, str(data.traces["trace_id"][0]))
    return data


def _sessions(con: Connection, flt: Filters) -> object:
    listing = queries.session_list(con, flt)
    if not listing.is_empty():
        queries.session_detail(con, str(listing["session_id"][0]))
    return listing


def _data(con: Connection, path: Path) -> object:
    queries.store_overview(con)
    return queries.data_page_data(con, path)


def _compare(con: Connection, path: Path) -> object:
    queries.store_overview(con)
    queries.compare_groups(con, COMPARE_BY, EVERYTHING)
    return queries.compare_data(con, COMPARE_BY, EVERYTHING)


def _open_only(con: Connection, path: Path) -> object:
    return None


def _overview_only(con: Connection, path: Path) -> object:
    return queries.store_overview(con)


_FILTERABLE: Final[tuple[tuple[str, Callable[[Connection, Filters], object]], ...]] = (
    ("history_access", queries.history_access_data),
    ("boilerplate", _boilerplate),
    ("delegation", _delegation),
    ("trims", queries.trims_data),
    ("goals", queries.goals_data),
    ("sessions", _sessions),
)


@dataclass(frozen=True, slots=True)
class Page:
    """One timed load: ``group`` is page, filtered, on demand, baseline, query or part.

    ``with_open``: the time includes opening and closing the store (a page
    load); otherwise only ``load`` itself, on a store already open.
    """

    name: str
    group: str
    load: PageLoad
    with_open: bool = True


def pages() -> tuple[Page, ...]:
    """Every timed load, in table order."""
    unfiltered = [
        Page("verdict", "page", _verdict(EVERYTHING)),
        *(Page(name, "page", _page(f, EVERYTHING)) for name, f in _FILTERABLE),
        Page("data", "page", _data),
    ]
    filtered = [
        Page("verdict", "filtered", _verdict(FILTER)),
        *(Page(name, "filtered", _page(f, FILTER)) for name, f in _FILTERABLE),
    ]
    return (
        *unfiltered,
        *filtered,
        Page("compare (prompt_version)", "on demand", _compare),
        Page("verdict without the kept intervals", "baseline", _verdict_unkept),
        Page("verdict_data, kept intervals", "query", _verdict_query, with_open=False),
        Page(
            "verdict_data, without the kept intervals",
            "query",
            _verdict_query_unkept,
            with_open=False,
        ),
        Page("open + close the store", "part", _open_only),
        Page("open + store_overview", "part", _overview_only),
    )


def time_load(path: Path, page: Page) -> float:
    """Seconds for one page load: open the store as the dashboard does, query, close."""
    started = time.perf_counter()
    with read_connection(path) as view:
        if not page.with_open:
            started = time.perf_counter()
        page.load(view.connection, path)
        if not page.with_open:
            return time.perf_counter() - started
    return time.perf_counter() - started


def measure(
    paths: Sequence[Path], selected: Sequence[Page], repeat: int
) -> dict[tuple[str, str], list[list[float]]]:
    """Times per (group, page) and per store, rounds interleaved over pages and stores."""
    times: dict[tuple[str, str], list[list[float]]] = {
        (p.group, p.name): [[] for _ in paths] for p in selected
    }
    for _ in range(repeat):
        for i, path in enumerate(paths):
            for page in selected:
                times[(page.group, page.name)][i].append(time_load(path, page))
    return times


# ---------------------------------------------------------------------------
# The demo


def time_demo(workdir: Path, repeat: int = 3) -> list[float]:
    """Wall seconds of ``recurscope demo --prepare-only`` in a subprocess, ``repeat`` times."""
    script = Path(sys.executable).with_name("recurscope")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "recurscope.cli"]
    folder = workdir / "demo"
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(
            [*command, "demo", "--prepare-only", "--db", str(folder / "demo.duckdb")],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        seconds.append(time.perf_counter() - started)
    return seconds


# ---------------------------------------------------------------------------
# Output


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _size_label(spans: int) -> str:
    if spans % 1_000_000 == 0:
        return f"{spans // 1_000_000}M"
    if spans % 1_000 == 0:
        return f"{spans // 1_000}k"
    return f"{spans:,}"


def _seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


_GROUP_LABELS: Final = {
    "page": "",
    "filtered": f" (filtered: role = {FILTER.role})",
    "on demand": " (on demand)",
    "baseline": "",
    "query": " (store already open)",
    "part": " (part of every page)",
}


def rows(sizes: Sequence[int], times: dict[tuple[str, str], list[list[float]]]) -> list[list[str]]:
    """Table rows: page, a median per size, last / first ratio, over the target?"""
    table = []
    for (group, name), per_size in times.items():
        medians = [_median(t) for t in per_size]
        ratio = f"{medians[-1] / medians[0]:.2f}" if len(sizes) > 1 and medians[0] else "—"
        over = [_size_label(s) for s, m in zip(sizes, medians, strict=True) if m > TARGET_SECONDS]
        table.append(
            [
                f"{name}{_GROUP_LABELS[group]}",
                *(_seconds(m) for m in medians),
                ratio,
                ("over 1 s at " + ", ".join(over)) if over and group != "part" else "",
            ]
        )
    return table


def print_table(header: list[str], body: list[list[str]], markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("| " + " | ".join("---" for _ in header) + " |")
        for row in body:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    for row in [header, *body]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def _load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--spans",
        type=int,
        nargs="+",
        default=list(DEFAULT_SIZES),
        help="store sizes in spans (default 1000000 4000000)",
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds (median reported)")
    parser.add_argument("--workdir", type=Path, default=None, help="where stores are cached")
    parser.add_argument("--keep", action="store_true", help="keep the workdir's stores")
    parser.add_argument("--no-demo", action="store_true", help="skip the demo preparation")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    options = parser.parse_args(argv)

    sizes = sorted(set(options.spans))
    workdir = options.workdir or Path(tempfile.mkdtemp(prefix="rs-dashboard-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    load_start = _load()
    print(f"load average at start (1/5/15 min): {load_start}", flush=True)
    try:
        paths = [store_for(workdir, n, log=lambda m: print(m, flush=True)) for n in sizes]
        infos = [store_info(p) for p in paths]
        load_measure = _load()
        started = time.perf_counter()
        times = measure(paths, pages(), options.repeat)
        measured = time.perf_counter() - started
        load_after_pages = _load()
        demo = [] if options.no_demo else time_demo(workdir)
    finally:
        if not options.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    load_end = _load()

    print()
    print_table(
        ["store", "spans", "recurscope spans", "sessions", "file"],
        [
            [
                _size_label(n),
                f"{i.spans:,}",
                f"{i.evidence_spans:,}",
                f"{i.sessions:,}",
                f"{i.megabytes:,.0f} MB",
            ]
            for n, i in zip(sizes, infos, strict=True)
        ],
        options.markdown,
    )
    print()
    ratio_label = f"{_size_label(sizes[-1])}/{_size_label(sizes[0])}" if len(sizes) > 1 else "ratio"
    print_table(
        [
            f"page ({datetime.now():%Y-%m-%d}, median of {options.repeat})",
            *(f"{_size_label(n)} median" for n in sizes),
            f"{ratio_label} ratio",
            "note",
        ],
        rows(sizes, times),
        options.markdown,
    )
    print()
    if demo:
        print(
            f"recurscope demo --prepare-only (end to end, median of {len(demo)}): "
            f"{_median(demo):.1f} s (runs: {', '.join(f'{s:.1f}' for s in demo)})"
        )
    print(f"page rounds took {measured:.0f} s")
    print(
        f"load average (1/5/15 min): start {load_start}; before the pages {load_measure}; "
        f"after the pages {load_after_pages}; end {load_end}"
    )
    slow = [
        (name, i)
        for (group, name), per_size in times.items()
        if group == "page"
        for i, t in enumerate(per_size)
        if _median(t) > TARGET_SECONDS
    ]
    print(f"target every page <= 1 s (median): {'met' if not slow else 'NOT met'}")
    return 0 if not slow else 1


if __name__ == "__main__":
    sys.exit(main())
