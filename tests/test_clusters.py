"""Near-duplicate clusters: first-fit leader clustering in SQL, stable ids, the refresh."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.instrumentation.analysis._sketch import (
    FOOTPRINT_FLOOR,
    bands,
    encode,
    minhash,
    similarity,
)
from recurscope.pipeline.evidence.clusters import (
    REGISTRY,
    ClusterSettings,
    assign_shape_clusters,
    boilerplate_sweep,
    stored_settings,
)
from recurscope.pipeline.evidence.models import install_dialect, refresh
from recurscope.pipeline.testing import create_otel_traces_table, insert_span_specs

T0 = datetime(2026, 12, 2, 9, 0)
SETTINGS = ClusterSettings(0.7, 4, 16)


def sketch_of(features: set[str]) -> str:
    return encode(minhash(features))


def shapes_db() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    install_dialect(con)
    con.execute(
        "CREATE TABLE session_fingerprints (fingerprint VARCHAR, sketch VARCHAR, "
        "example_language VARCHAR, first_seen TIMESTAMP_NS)"
    )
    return con


def add(con: duckdb.DuckDBPyConnection, shapes: list[tuple[str, str | None, int]]) -> None:
    con.executemany(
        "INSERT INTO session_fingerprints VALUES (?, ?, 'python', ?)",
        [(fp, sk, T0 + timedelta(minutes=minute)) for fp, sk, minute in shapes],
    )


def registry(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    return dict(con.execute(f"SELECT fingerprint, cluster_id FROM {REGISTRY}").fetchall())


def sequential_first_fit(
    shapes: list[tuple[str, str | None, int]], s: ClusterSettings
) -> dict[str, str]:
    """The reference: visit distinct sketches in first-seen order, join the earliest
    leader sharing a band and within the threshold, else lead."""
    first: dict[str, tuple[int, str]] = {}
    for fp, sk, minute in shapes:
        if sk is not None and (sk not in first or (minute, fp) < first[sk]):
            first[sk] = (minute, fp)
    leaders: list[tuple[str, str]] = []  # (sketch, leader fingerprint) in order
    cluster_of_sketch: dict[str, str] = {}
    for sk, (_, fp) in sorted(first.items(), key=lambda kv: kv[1]):
        my_bands = bands(sk, s.band_rows, s.band_count)
        for leader_sketch, leader_fp in leaders:
            theirs = bands(leader_sketch, s.band_rows, s.band_count)
            shares = any(a == b for a, b in zip(my_bands, theirs, strict=False))
            if shares and similarity(sk, leader_sketch) >= s.threshold:
                cluster_of_sketch[sk] = leader_fp
                break
        else:
            leaders.append((sk, fp))
            cluster_of_sketch[sk] = fp
    return {fp: (cluster_of_sketch[sk] if sk is not None else fp) for fp, sk, _ in shapes}


def family(seed: int, size: int, changed: int) -> list[set[str]]:
    """``size`` feature sets around one base, each with ``changed`` features replaced."""
    rng = random.Random(seed)
    base = [f"f{seed}-{i}" for i in range(40)]
    out = []
    for n in range(size):
        feats = list(base)
        for k in rng.sample(range(40), changed):
            feats[k] = f"x{seed}-{n}-{k}"
        out.append(set(feats))
    return out


@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(1, 4), st.integers(0, 14)),
        min_size=1,
        max_size=6,
    ),
    st.randoms(use_true_random=False),
    st.sampled_from([0.5, 0.7, 0.9]),
)
@settings(max_examples=40, deadline=None)
def test_sql_rounds_equal_sequential_first_fit(
    families: list[tuple[int, int, int]], rng: random.Random, threshold: float
) -> None:
    shapes = []
    for seed, size, changed in families:
        for feats in family(seed, size, changed):
            shapes.append((f"fp{len(shapes)}", sketch_of(feats), rng.randrange(100)))
    shapes.append(("no-sketch", None, 3))
    s = ClusterSettings(threshold, 4, 16)
    con = shapes_db()
    add(con, shapes)
    assign_shape_clusters(con, s)
    assert registry(con) == sequential_first_fit(shapes, s)
    # Every member is within the threshold of its leader (the diameter bound).
    worst = con.execute(
        f"SELECT min(similarity) FROM {REGISTRY} WHERE sketch IS NOT NULL"
    ).fetchall()[0][0]
    assert worst is None or worst >= threshold


@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(1, 4), st.integers(10, 36), st.integers(0, 3)),
        min_size=1,
        max_size=6,
    ),
    st.randoms(use_true_random=False),
    st.sampled_from([(0.7, 4, 16), (0.5, 2, 16), (0.9, 8, 8)]),
)
@settings(max_examples=40, deadline=None)
def test_sql_rounds_equal_sequential_first_fit_with_footprints(
    families: list[tuple[int, int, int, int]],
    rng: random.Random,
    params: tuple[float, int, int],
) -> None:
    """Answers far apart, footprints nearly alike: the footprint rule and its bands, in SQL and Python."""
    shapes = []
    for seed, size, changed, footprint_changed in families:
        answers = family(seed, size, changed)
        steps = family(seed + 100, size, footprint_changed)
        for n, (feats, step) in enumerate(zip(answers, steps, strict=True)):
            sketch = sketch_of(feats) + (sketch_of(step) if n % 3 != 2 else "")
            shapes.append((f"fp{len(shapes)}", sketch, rng.randrange(100)))
    s = ClusterSettings(*params)
    con = shapes_db()
    add(con, shapes)
    assign_shape_clusters(con, s)
    assert registry(con) == sequential_first_fit(shapes, s)


@given(
    answers=st.integers(0, 40),
    steps=st.integers(0, 6),
    footprints=st.tuples(st.booleans(), st.booleans()),
)
@settings(max_examples=60, deadline=None)
def test_the_sql_similarity_is_the_python_one(
    answers: int, steps: int, footprints: tuple[bool, bool]
) -> None:
    (a, b), (fa, fb) = family(1, 2, answers), family(2, 2, steps)
    left = sketch_of(a) + (sketch_of(fa) if footprints[0] else "")
    right = sketch_of(b) + (sketch_of(fb) if footprints[1] else "")
    con = shapes_db()
    sql = con.execute("SELECT sketch_similarity(?, ?)", [left, right]).fetchall()[0][0]
    assert sql == pytest.approx(similarity(left, right))
    if all(footprints) and similarity(left[:512], right[:512]) >= FOOTPRINT_FLOOR:
        assert sql >= similarity(left[512:], right[512:]) or sql == similarity(left, right)


def test_footprints_join_answers_that_look_apart_only_beside_some_shared_answer() -> None:
    base = {f"a{i}" for i in range(40)}
    steps = sketch_of({f"s{i}" for i in range(60)})
    near = sketch_of(base) + steps
    apart = sketch_of({f"a{i}" for i in range(20)} | {f"b{i}" for i in range(20)}) + steps
    alien = sketch_of({f"c{i}" for i in range(40)}) + steps
    assert similarity(near, apart) == 1.0  # answers share ~1/3, footprints all
    assert similarity(near, alien) == similarity(near[:512], alien[:512]) < 0.2
    assert similarity(near, apart[:512]) < 0.7  # no footprint, no rule
    con = shapes_db()
    add(
        con, [("near", near, 0), ("apart", apart, 1), ("alien", alien, 2), ("bare", apart[:512], 3)]
    )
    assign_shape_clusters(con, SETTINGS)
    assert registry(con) == {"near": "near", "apart": "near", "alien": "alien", "bare": "bare"}
    assert con.execute(
        "SELECT valid_sketch(?), valid_sketch(?)", [near, near[:600]]
    ).fetchall() == [(True, False)]


def test_clustering_in_time_ordered_increments_equals_all_at_once() -> None:
    shapes = []
    for seed in range(6):
        for feats in family(seed, 5, 6):
            shapes.append((f"fp{len(shapes)}", sketch_of(feats), len(shapes)))
    random.Random(7).shuffle(shapes)  # insertion order does not matter, first_seen does
    whole = shapes_db()
    add(whole, shapes)
    assign_shape_clusters(whole, SETTINGS)
    parts = shapes_db()
    for lo, hi in ((0, 10), (10, 18), (18, 30)):
        add(parts, [s for s in shapes if lo <= s[2] < hi])
        assign_shape_clusters(parts, SETTINGS)
    assert registry(parts) == registry(whole)
    assert len(set(registry(whole).values())) < len(shapes)  # families did cluster


def test_a_bridging_shape_joins_the_older_cluster_and_no_id_changes() -> None:
    common = {f"c{i}" for i in range(60)}
    p = {f"p{i}" for i in range(20)}
    q = {f"q{i}" for i in range(20)}
    a, b = sketch_of(common | p), sketch_of(common | q)
    bridge = sketch_of(common | set(sorted(p)[:10]) | set(sorted(q)[:10]))
    assert similarity(a, b) < 0.7 <= min(similarity(bridge, a), similarity(bridge, b))
    con = shapes_db()
    add(con, [("A", a, 0), ("B", b, 1)])
    assign_shape_clusters(con, SETTINGS)
    before = registry(con)
    assert before == {"A": "A", "B": "B"}
    add(con, [("C", bridge, 2)])
    assign_shape_clusters(con, SETTINGS)
    after = registry(con)
    assert after == {"A": "A", "B": "B", "C": "A"}  # joins the older, clusters never merge


def test_a_late_older_shape_never_moves_existing_ids() -> None:
    feats = family(1, 3, 4)
    con = shapes_db()
    add(con, [("late-leader-2", sketch_of(feats[1]), 5), ("m3", sketch_of(feats[2]), 6)])
    assign_shape_clusters(con, SETTINGS)
    before = registry(con)
    add(con, [("early", sketch_of(feats[0]), 0)])  # first seen before both, arrives after
    assign_shape_clusters(con, SETTINGS)
    after = registry(con)
    assert {k: after[k] for k in before} == before
    assert after["early"] in {"late-leader-2", "early"}


def test_identical_sketches_share_a_cluster_and_a_bad_sketch_is_alone() -> None:
    sk = sketch_of({"a", "b", "c"})
    con = shapes_db()
    add(con, [("one", sk, 0), ("two", sk, 1), ("bad", "zz", 2), ("none", None, 3)])
    # The SQL models drop malformed sketches before clustering (calls.sql); here
    # the registry sees what it is given, so give it what calls.sql would.
    con.execute("UPDATE session_fingerprints SET sketch = NULL WHERE NOT valid_sketch(sketch)")
    assign_shape_clusters(con, SETTINGS)
    assert registry(con) == {"one": "one", "two": "one", "bad": "bad", "none": "none"}


def test_new_settings_recluster_from_scratch() -> None:
    shapes = [(f"fp{i}", sketch_of(f), i) for i, f in enumerate(family(3, 4, 8))]
    con = shapes_db()
    add(con, shapes)
    assign_shape_clusters(con, SETTINGS)
    assert stored_settings(con) == SETTINGS
    stats = assign_shape_clusters(con, ClusterSettings(0.95, 4, 16))
    assert stats.reclustered and stored_settings(con) == ClusterSettings(0.95, 4, 16)
    assert registry(con) == sequential_first_fit(shapes, ClusterSettings(0.95, 4, 16))


# --- the refresh, on a real DuckDB file -------------------------------------------------


def respelled_sessions(first: int, count: int) -> list[dict[str, object]]:
    """One history-reading call per session, each a different re-spelling of one program."""
    feats = family(9, count, 1)
    return [
        {
            "session": f"s{first + n}",
            "trace": f"t{first + n}",
            "span": f"c{first + n}",
            "at": 3600 * (first + n),
            "accessed": True,
            "ops": ["filter", "map"],
            "fingerprint": f"{first + n:016x}",
            "sketch": sketch_of(feats[n]),
            "history_size": 3,
        }
        for n in range(count)
    ]


def evidence_rows(con: duckdb.DuckDBPyConnection) -> dict[str, object]:
    return {
        "shape_clusters": con.execute(
            "SELECT cluster_id, shapes, calls, sessions, is_boilerplate FROM shape_clusters "
            "ORDER BY cluster_id"
        ).fetchall(),
        "registry": con.execute(
            f"SELECT fingerprint, cluster_id FROM {REGISTRY} ORDER BY fingerprint"
        ).fetchall(),
        "sessions": con.execute(
            "SELECT session_id, boilerplate_calls, clustered_boilerplate_calls FROM sessions "
            "ORDER BY session_id"
        ).fetchall(),
        "evidence": con.execute(
            "SELECT criterion, numerator, denominator FROM evidence "
            "WHERE criterion LIKE 'boilerplate%' ORDER BY criterion"
        ).fetchall(),
    }


def test_refresh_counts_respelled_code_as_boilerplate_and_incremental_equals_full(
    tmp_path: Path,
) -> None:
    specs = respelled_sessions(0, 6)
    incremental = duckdb.connect(str(tmp_path / "inc.duckdb"))
    create_otel_traces_table(incremental)
    for n in range(6):  # sessions arrive one at a time, in time order
        insert_span_specs(incremental, [specs[n]])
        refresh(incremental, clusters=SETTINGS)
    full = duckdb.connect(str(tmp_path / "full.duckdb"))
    create_otel_traces_table(full)
    insert_span_specs(full, specs)
    refresh(full, clusters=SETTINGS)
    assert evidence_rows(incremental) == evidence_rows(full)
    evidence = dict(
        (name, (num, den))
        for name, num, den in evidence_rows(full)["evidence"]  # type: ignore[union-attr]
    )
    # Six distinct fingerprints never recur; their one cluster does (in 6 >= S + 1 sessions).
    assert evidence["boilerplate_share_exact"] == (0, 6)
    assert evidence["boilerplate_share"] == (6, 6)
    assert full.execute(
        "SELECT count(*), max(sessions), bool_and(is_boilerplate) FROM shape_clusters"
    ).fetchall() == [(1, 6, True)]


def test_a_hostile_sketch_attribute_is_ignored_not_fatal(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "h.duckdb"))
    create_otel_traces_table(con)
    specs = respelled_sessions(0, 2)
    specs[0]["sketch"] = "\x1b[31m" + "f" * 600
    specs[1]["sketch"] = "G" * 512
    insert_span_specs(con, specs)
    refresh(con, clusters=SETTINGS)
    assert con.execute("SELECT count(*) FROM calls WHERE sketch IS NOT NULL").fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM shape_clusters").fetchall() == [(2,)]


@pytest.mark.parametrize("threshold", [0.5, 0.9])
def test_a_refresh_with_other_settings_reclusters(tmp_path: Path, threshold: float) -> None:
    con = duckdb.connect(str(tmp_path / "r.duckdb"))
    create_otel_traces_table(con)
    insert_span_specs(con, respelled_sessions(0, 6))
    refresh(con, clusters=SETTINGS)
    result = refresh(con, clusters=ClusterSettings(threshold, 4, 16))
    assert result.mode == "full" and "clustering settings" in result.reason
    assert stored_settings(con) == ClusterSettings(threshold, 4, 16)


def test_the_sweep_counts_the_same_from_rows_and_from_arrow() -> None:
    """boilerplate_sweep: exact first, then each similarity; tuples and Arrow agree; empty is zero."""
    near = {f"f{i}" for i in range(30)}
    base, other = sketch_of(near), sketch_of(near | {"extra"})
    rows = [
        (f"s{n}", "a" if n % 2 else "b", base if n % 2 else other, "python", T0, 2)
        for n in range(8)
    ] + [("s9", "c", sketch_of({"x", "y"}), "ruby", T0, 1)]
    from_rows = boilerplate_sweep(rows, 20, 4, SETTINGS)
    table = pa.table(
        {
            name: [row[i] for row in rows]
            for i, name in enumerate(
                ("session_id", "fingerprint", "sketch", "example_language", "first_seen", "calls")
            )
        }
    )
    assert boilerplate_sweep(table, 20, 4, SETTINGS) == from_rows
    exact, *clustered = from_rows
    assert exact.similarity is None and exact.boilerplate_calls == 0  # 4 sessions each: not >= 5
    assert [p.similarity for p in clustered] == [0.5, 0.6, 0.7, 0.8, 0.9]
    at_07 = clustered[2]
    assert similarity(base, other) >= 0.7
    assert (at_07.boilerplate_calls, at_07.clusters, at_07.boilerplate_clusters) == (16, 2, 1)
    empty = boilerplate_sweep([], 0, 4, SETTINGS)
    assert all(p.boilerplate_calls == 0 and p.clusters == 0 for p in empty)
