"""Near-duplicate clustering benchmark: clustering distinct sketches vs exact-hash grouping.

    python bench/cluster_bench.py               # 10,000 and 100,000 distinct sketches (~2 min)
    python bench/cluster_bench.py --quick       # 2,000 and 10,000 (~15 s)
    python bench/cluster_bench.py --markdown    # tables for docs/benchmarks.md
    python bench/cluster_bench.py --steps       # also time each SQL statement of one run

Builds ``session_fingerprints`` in an in-memory DuckDB: distinct shapes (one
sketch each) in families of 1-20 near-duplicates plus 20% singletons, python
and ruby, each shape in a session or more (two on average). Sketches are not
MinHashes of programs (1 ms each in Python): a family has a base of 64 random
32-bit words and each member keeps each base word with probability p (p per
family, 0.75-0.97), else gets a random word, so two members share about p²
of their words (0.56-0.94); the SQL only compares hex words, so it does the
same work as on real sketches with these similarities. First seen times are a
random interleaving of the families.

Two scenarios. *independent*: every family base is random, so sketches of two
families share no word and never an LSH band (the cheapest case). *shared*:
each family base takes each word from one common sketch of its language with
probability r ~ Beta(1, 1.5), else a random word. Real sketches share words
across families because programs share features (a small vocabulary of
concepts and record fields): this reproduces the labelled clone families'
cross-family similarities, a little milder (quantiles .5/.9/.99 of
0.06/0.30/0.53 here against 0.08/0.31/0.62 among the 132 programs of
data/clone-families, same language, different families; cross-family pairs
sharing an LSH band: 3.9% here, 6.8% there). Its candidate pairs, and so its
time, grow with the square of the sketches: it runs at 2,000-8,000 (1,000 and
2,000 with --quick), once each.

A third, *footprint*, builds scheme v5's sketches: answers as in *shared*
but with members keeping each base word with p in 0.3-0.97 (so many
same-family pairs fall under the similarity on answers and only their
footprints join them), and 90% of the shapes carry a footprint (64 more
words): members keep each word of their family's footprint with p in
0.93-1.0, and family footprints share words with one common footprint per
language (r ~ Beta(1, 1.5)), as programs that read every record share most
of theirs. It runs at the shared scenario's sizes.

Measured, each the best of ``--repeat`` runs (the baseline of at least 3), as
ratios against the exact-hash grouping the evidence did before clusters
(``code_clusters``: ``GROUP BY fingerprint`` of the same rows with calls,
sessions, first and last seen), measured in the same run:

1. clustering every shape from an empty registry (``assign_shape_clusters``);
2. the incremental cost when 1% new shapes arrive (first seen after all
   others; half of them near-duplicates of registered leaders, half new
   families): clustering just those, against the exact grouping of the whole
   table and against the full clustering;
3. rounds, and the peak RSS (``getrusage``) of the process, which measures
   one size of one scenario and nothing else, and how much it grew while
   clustering (a high-water mark: the generated data is in the peak before).
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, TypeVar, cast

import duckdb
import numpy as np
import pyarrow as pa

from recurscope.pipeline.evidence.clusters import (
    DEFAULT_CLUSTERS,
    REGISTRY,
    ClusterStats,
    assign_shape_clusters,
)
from recurscope.pipeline.evidence.models import install_dialect

WORDS = 64
LANGUAGES = ("python", "ruby")
T0 = np.datetime64(datetime(2026, 12, 1), "ns")
SECOND = np.timedelta64(1_000_000_000, "ns")
SINGLETONS = 0.2  # share of shapes that are families of one on purpose
SCENARIOS = ("independent", "shared", "footprint")
FOOTPRINTS = 0.9  # share of shapes with a footprint in the footprint scenario
T = TypeVar("T")

Words = np.ndarray[Any, np.dtype[np.uint32]]


@dataclass(frozen=True, slots=True)
class Shapes:
    """Distinct shapes: 64 words each, a language index and a first-seen time (ns).

    ``steps``: a footprint's 64 words per shape, used where ``stepped`` is true
    (the footprint scenario; scheme v5's 1024-character sketches).
    """

    words: Words
    language: np.ndarray[Any, np.dtype[np.int64]]
    first_seen: np.ndarray[Any, np.dtype[np.datetime64]]
    steps: Words | None = None
    stepped: np.ndarray[Any, np.dtype[np.bool_]] | None = None

    def __len__(self) -> int:
        return len(self.language)


def _random_words(rng: np.random.Generator, shape: tuple[int, ...]) -> Words:
    return rng.integers(0, 2**32, size=shape, dtype=np.uint32)


def families(
    count: int,
    rng: np.random.Generator,
    common: Words | None,
    start: np.datetime64,
    footprint: Words | None = None,
) -> Shapes:
    """``count`` shapes in families of 1-20 plus singletons, first seen from ``start`` on.

    ``common`` (one sketch per language) makes the *shared* scenario;
    ``footprint`` (one per language) the *footprint* scenario.
    """
    sizes: list[int] = []
    total = 0
    while total < count * (1 - SINGLETONS):
        sizes.append(int(rng.integers(1, 21)))
        total += sizes[-1]
    if total > count:  # the last family overshot (tiny counts): trim it
        sizes[-1] -= total - count
    sizes += [1] * (count - sum(sizes))
    family_count = len(sizes)
    base = _random_words(rng, (family_count, WORDS))
    language = rng.integers(0, len(LANGUAGES), size=family_count)
    if common is not None:
        share = rng.beta(1.0, 1.5, size=family_count)
        take = rng.random((family_count, WORDS)) < share[:, None]
        base = np.where(take, common[language], base)
    member_of = np.repeat(np.arange(family_count), sizes)
    low = 0.75 if footprint is None else 0.3  # footprints join answers far apart
    keep = rng.uniform(low, 0.97, size=family_count)[member_of]
    kept = rng.random((count, WORDS)) < keep[:, None]
    words = np.where(kept, base[member_of], _random_words(rng, (count, WORDS)))
    order = rng.permutation(count)  # interleave the families in time
    first_seen = start + np.arange(count) * SECOND
    if footprint is None:
        return Shapes(words[order], language[member_of][order], first_seen)
    # Footprints: a family's members keep each word of its footprint with p in
    # 0.93-1.0 (pairs share ~0.86-1.0 of their words, many past 0.95), and
    # family footprints share words with one common footprint, as programs
    # that read every record share most of theirs.
    step_base = _random_words(rng, (family_count, WORDS))
    share = rng.beta(1.0, 1.5, size=family_count)
    take = rng.random((family_count, WORDS)) < share[:, None]
    step_base = np.where(take, footprint[language], step_base)
    step_keep = rng.uniform(0.93, 1.0, size=family_count)[member_of]
    step_kept = rng.random((count, WORDS)) < step_keep[:, None]
    steps = np.where(step_kept, step_base[member_of], _random_words(rng, (count, WORDS)))
    stepped = rng.random(count) < FOOTPRINTS
    return Shapes(
        words[order], language[member_of][order], first_seen, steps[order], stepped[order]
    )


def near_duplicates(
    leaders: Words, language: np.ndarray[Any, np.dtype[np.int64]], count: int,
    rng: np.random.Generator, start: np.datetime64,
) -> Shapes:  # fmt: skip
    """``count`` shapes, each near a random leader (keeps each word with p in 0.75-0.97)."""
    pick = rng.integers(0, len(leaders), size=count)
    keep = rng.uniform(0.75, 0.97, size=count)
    kept = rng.random((count, WORDS)) < keep[:, None]
    words = np.where(kept, leaders[pick], _random_words(rng, (count, WORDS)))
    return Shapes(words, language[pick], start + np.arange(count) * SECOND)


def encode(words: Words, steps: Words | None = None, stepped: Any = None) -> list[str]:
    """Sketches as ``_sketch.encode`` writes them: 64 eight-digit lowercase hex words,
    followed by the footprint's 64 where a shape has one."""
    width = WORDS * 8
    text = words.astype(">u4").tobytes().hex()
    out = [text[i : i + width] for i in range(0, len(text), width)]
    if steps is not None and stepped is not None:
        more = steps.astype(">u4").tobytes().hex()
        out = [
            sketch + more[i * width : (i + 1) * width] if has else sketch
            for i, (sketch, has) in enumerate(zip(out, stepped, strict=True))
        ]
    return out


def decode(sketches: list[str]) -> Words:
    """The answers' words of each sketch (its first 64)."""
    raw = bytes.fromhex("".join(sketch[: WORDS * 8] for sketch in sketches))
    return np.frombuffer(raw, dtype=">u4").astype(np.uint32).reshape(-1, WORDS)


def session_rows(shapes: Shapes, rng: np.random.Generator, tag: str) -> pa.Table:
    """``session_fingerprints`` rows: each shape in 1+ sessions (two on average)."""
    n = len(shapes)
    sessions = np.minimum(rng.geometric(0.5, size=n), 10)
    shape = np.repeat(np.arange(n), sessions)
    nth = np.arange(len(shape)) - np.repeat(np.cumsum(sessions) - sessions, sessions)
    fingerprints = np.array([f"{tag}{i:015x}" for i in range(n)], dtype=object)
    sketches = np.array(encode(shapes.words, shapes.steps, shapes.stepped), dtype=object)
    return pa.table(
        {
            "session_id": [f"s{v}" for v in rng.integers(0, max(1, n // 2), size=len(shape))],
            "fingerprint": fingerprints[shape],
            "calls": rng.integers(1, 6, size=len(shape)),
            "sketch": sketches[shape],
            "example_language": np.array(LANGUAGES, dtype=object)[shapes.language][shape],
            # a shape's later sessions see it a minute later each: min() is its first seen
            "first_seen": shapes.first_seen[shape] + nth * 60 * SECOND,
        }
    )


def _append(con: duckdb.DuckDBPyConnection, rows: pa.Table) -> None:
    con.register("bench_rows", rows)
    con.execute("INSERT INTO session_fingerprints SELECT * FROM bench_rows")
    con.unregister("bench_rows")


def database(rows: pa.Table) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    install_dialect(con)
    con.execute(
        "CREATE TABLE session_fingerprints (session_id VARCHAR, fingerprint VARCHAR, "
        "calls BIGINT, sketch VARCHAR, example_language VARCHAR, first_seen TIMESTAMP_NS)"
    )
    _append(con, rows)
    return con


def exact_grouping(con: duckdb.DuckDBPyConnection) -> None:
    """The baseline: ``code_clusters``' per-fingerprint grouping of the same rows."""
    con.execute(
        "CREATE OR REPLACE TEMP TABLE exact_groups AS SELECT fingerprint, sum(calls) AS calls, "
        "count(*) AS sessions, min(first_seen) AS first_seen, max(first_seen) AS last_seen "
        "FROM session_fingerprints GROUP BY fingerprint"
    )


def best(repeat: int, setup: Callable[[], None], run: Callable[[], T]) -> tuple[float, T]:
    """The fastest of ``repeat`` runs (noise only ever slows a run) and its result."""
    runs = []
    for _ in range(max(1, repeat)):
        setup()
        started = time.perf_counter()
        outcome = run()
        runs.append((time.perf_counter() - started, outcome))
    return min(runs, key=lambda run: run[0])


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


@dataclass(frozen=True, slots=True)
class Figures:
    scenario: str
    sketches: int
    rows: int
    clusters: int
    rounds: int
    exact_s: float
    full_s: float
    rss_growth_mb: float
    rss_peak_mb: float
    new: int = 0
    new_rounds: int = 0
    exact_after_s: float = float("nan")
    incremental_s: float = float("nan")

    @property
    def full_ratio(self) -> float:
        return self.full_s / self.exact_s

    @property
    def incremental_ratio(self) -> float:
        return self.incremental_s / self.exact_after_s

    @property
    def incremental_vs_full(self) -> float:
        return self.incremental_s / self.full_s


def _cluster(con: duckdb.DuckDBPyConnection) -> ClusterStats:
    return assign_shape_clusters(con, DEFAULT_CLUSTERS)


def measure(
    count: int, repeat: int, scenario: str = "independent", increment: bool = True
) -> Figures:
    """Cluster ``count`` distinct sketches from scratch, then a 1% increment."""
    rng = np.random.default_rng(count + SCENARIOS.index(scenario))
    common = _random_words(rng, (len(LANGUAGES), WORDS)) if scenario != "independent" else None
    footprint = _random_words(rng, (len(LANGUAGES), WORDS)) if scenario == "footprint" else None
    rows = session_rows(families(count, rng, common, T0, footprint), rng, "a")
    con = database(rows)
    row_count = rows.num_rows
    del rows
    gc.collect()
    try:
        exact, _ = best(max(3, repeat), lambda: None, lambda: exact_grouping(con))
        peak_before = peak_rss_mb()

        def empty_registry() -> None:
            con.execute(f"DROP TABLE IF EXISTS {REGISTRY}")

        full, stats = best(repeat, empty_registry, lambda: _cluster(con))
        peak_after = peak_rss_mb()
        clusters = int(
            con.execute(f"SELECT count(DISTINCT cluster_id) FROM {REGISTRY}").fetchall()[0][0]
        )
        figures = Figures(
            scenario, count, row_count, clusters, stats.rounds, exact, full,
            peak_after - peak_before, peak_after,
        )  # fmt: skip
        if not increment:
            return figures
        return _increment(con, figures, rng, common, repeat, footprint)
    finally:
        con.close()


def _increment(
    con: duckdb.DuckDBPyConnection,
    figures: Figures,
    rng: np.random.Generator,
    common: Words | None,
    repeat: int,
    footprint: Words | None = None,
) -> Figures:
    """1% new shapes after all others: half near registered leaders, half new families.

    (Near duplicates copy a leader's answers, not its footprint.)
    """
    (last,) = con.execute("SELECT max(first_seen) FROM session_fingerprints").fetchall()[0]
    start = np.datetime64(last, "ns") + SECOND
    new = max(2, figures.sketches // 100)
    leaders = con.execute(
        f"SELECT sketch, language FROM {REGISTRY} WHERE is_leader AND sketch IS NOT NULL"
    ).fetchall()
    leader_words = decode([sketch for sketch, _ in leaders])
    leader_language = np.array([LANGUAGES.index(lang) for _, lang in leaders], dtype=np.int64)
    near = near_duplicates(leader_words, leader_language, new // 2, rng, start)
    fresh = families(new - new // 2, rng, common, start + len(near) * SECOND, footprint)
    added = pa.concat_tables(
        [session_rows(near, rng, "b"), session_rows(fresh, rng, "c")]
    ).combine_chunks()
    con.execute(f"CREATE TEMP TABLE bench_kept AS SELECT * FROM {REGISTRY}")
    cutoff = np.datetime64(last, "us").item()

    def restore() -> None:
        con.execute(f"DELETE FROM {REGISTRY}")
        con.execute(f"INSERT INTO {REGISTRY} SELECT * FROM bench_kept")
        con.execute("DELETE FROM session_fingerprints WHERE first_seen > ?", [cutoff])
        _append(con, added)

    incremental, stats = best(repeat, restore, lambda: _cluster(con))
    exact_after, _ = best(max(3, repeat), lambda: None, lambda: exact_grouping(con))
    return Figures(
        figures.scenario, figures.sketches, figures.rows, figures.clusters, figures.rounds,
        figures.exact_s, figures.full_s, figures.rss_growth_mb, figures.rss_peak_mb,
        new=stats.sketches, new_rounds=stats.rounds, exact_after_s=exact_after,
        incremental_s=incremental,
    )  # fmt: skip


class _TimedConnection:
    """Passes every statement to DuckDB and adds up its time by the statement's start."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def execute(self, sql: str, params: Any = None) -> duckdb.DuckDBPyConnection:
        words = sql.split()
        name = next((w for w in words if w.startswith("cluster_")), "")
        key = f"{' '.join(words[:3])} … {name}".strip()
        started = time.perf_counter()
        result = self.con.execute(sql, params)
        self.seconds[key] += time.perf_counter() - started
        self.calls[key] += 1
        return result


def steps(count: int, scenario: str) -> tuple[float, list[tuple[str, int, float]]]:
    """One full clustering with each statement timed: (total, [(statement, calls, s)])."""
    rng = np.random.default_rng(count + SCENARIOS.index(scenario))
    common = _random_words(rng, (len(LANGUAGES), WORDS)) if scenario == "shared" else None
    con = database(session_rows(families(count, rng, common, T0), rng, "a"))
    timed = _TimedConnection(con)
    started = time.perf_counter()
    assign_shape_clusters(cast(duckdb.DuckDBPyConnection, timed), DEFAULT_CLUSTERS)
    total = time.perf_counter() - started
    con.close()
    ranked = sorted(timed.seconds.items(), key=lambda kv: -kv[1])
    return total, [(key, timed.calls[key], seconds) for key, seconds in ranked]


def _print(results: list[Figures], markdown: bool) -> None:
    if markdown:
        print(
            "| scenario | distinct sketches | rows | clusters | rounds | exact grouping "
            "| clustering | ratio | peak RSS (of which clustering) | +1% new sketches (rounds) | incremental "
            "| ratio to exact | ratio to full |"
        )
        print("| --- " * 13 + "|")
    for r in results:
        inc = r.new > 0
        if markdown:
            print(
                f"| {r.scenario} | {r.sketches:,} | {r.rows:,} | {r.clusters:,} | {r.rounds} "
                f"| {r.exact_s * 1e3:.1f} ms | {r.full_s:.2f} s | **{r.full_ratio:,.0f}x** "
                f"| {r.rss_peak_mb:,.0f} MB (+{r.rss_growth_mb:,.0f}) | "
                + (
                    f"{r.new:,} ({r.new_rounds}) | {r.incremental_s * 1e3:,.0f} ms "
                    f"| **{r.incremental_ratio:.1f}x** | {r.incremental_vs_full:.3f} |"
                    if inc
                    else "– | – | – | – |"
                )
            )
        else:
            print(
                f"{r.scenario:<11} {r.sketches:>8,} sketches ({r.rows:,} rows) -> "
                f"{r.clusters:,} clusters in {r.rounds} rounds: clustering {r.full_s:.2f} s "
                f"= {r.full_ratio:,.0f}x exact grouping ({r.exact_s * 1e3:.1f} ms); "
                f"peak RSS +{r.rss_growth_mb:,.0f} MB (peak {r.rss_peak_mb:,.0f} MB)"
            )
            if inc:
                print(
                    f"{'':<11} +{r.new:,} new sketches in {r.new_rounds} rounds: "
                    f"{r.incremental_s * 1e3:,.0f} ms = {r.incremental_ratio:.1f}x exact grouping "
                    f"of the whole table ({r.exact_after_s * 1e3:.1f} ms), "
                    f"{r.incremental_vs_full:.3f} of the full clustering"
                )


def _in_child(scenario: str, count: int, repeat: int) -> Figures:
    """``measure`` in a fresh interpreter, so its peak RSS is this measurement's alone."""
    out = subprocess.run(
        [sys.executable, __file__, "--one", f"{scenario}:{count}", "--repeat", str(repeat)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return Figures(**json.loads(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 and 10,000 sketches")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step (best kept)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "--steps", action="store_true", help="also time each SQL statement of one run"
    )
    parser.add_argument("--one", metavar="SCENARIO:N", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.one:  # a child of _in_child
        scenario, count = options.one.split(":")
        print(json.dumps(asdict(measure(int(count), options.repeat, scenario))))
        return 0
    sizes = (2_000, 10_000) if options.quick else (10_000, 100_000)
    shared_sizes = (1_000, 2_000) if options.quick else (2_000, 4_000, 8_000)
    started = time.perf_counter()
    results = [_in_child("independent", n, options.repeat) for n in sizes]
    # The shared scenario grows with the square of the sketches: smaller, one run each.
    results += [_in_child("shared", n, 1) for n in shared_sizes]
    # Scheme v5's sketches: answers as in shared, 90% with a footprint beside.
    results += [_in_child("footprint", n, 1) for n in shared_sizes]
    _print(results, options.markdown)
    if options.steps:
        for scenario, n in (("independent", sizes[-1]), ("shared", shared_sizes[-1])):
            total, timed = steps(n, scenario)
            print(f"\n{scenario}, {n:,} sketches: {total:.2f} s; statements over 1%:")
            for key, calls, seconds in timed:
                if seconds >= 0.01 * total:
                    print(f"  {seconds:8.2f} s {seconds / total:6.1%}  x{calls:<3} {key}")
    print(f"\n(whole run {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
