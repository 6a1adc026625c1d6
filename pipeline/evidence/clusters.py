"""Near-duplicate clusters of history-processing code, from content-free sketches.

A model re-spells the same history program every time it writes it, so the
exact fingerprint splits one habit into many shapes. Each shape carries a
MinHash sketch (``recurscope.code.sketch``); this module groups shapes whose
sketches are within the pre-registered similarity of a cluster's first shape.

Method (docs/detector.md, "Clusters"): sequential first-fit **leader
clustering** over distinct sketches in the order they were first seen. A
sketch joins the earliest cluster whose leader is within the threshold, else
founds a cluster; candidates come from LSH bands, the decision from the
sketches' similarity. Every member is within the threshold of its leader, so a
cluster's diameter is bounded (at most twice the leader distance): no
chaining. The SQL (``sql/clusters/``) is set-based and runs unchanged where the
evidence runs; a round decides every sketch no earlier undecided sketch can
still affect, and rounds repeat until none is pending, which equals the
sequential answer.

Ids are stable: a cluster's id is its leader's fingerprint, and the registry
(``shape_cluster_members``, one row per fingerprint ever clustered) is only
appended to. A refresh clusters only fingerprints the registry does not hold;
a new shape joins an existing cluster or founds one, never moves an old shape,
and two clusters never merge (a shape bridging two joins the older). Because
shapes are visited in first-seen order, clustering everything at once gives
the same ids as clustering it in increments that arrive in time order (tested);
a late-arriving older shape is appended where it arrives. A changed threshold
or band layout (a pre-registration amendment) re-clusters from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import duckdb
import pyarrow as pa

from ..errors import PipelineError
from . import models as _models  # a module, not names: models imports this module too

__all__ = [
    "DEFAULT_CLUSTERS",
    "REGISTRY",
    "SWEEP",
    "ClusterSettings",
    "ClusterStats",
    "SweepPoint",
    "assign_shape_clusters",
    "boilerplate_sweep",
    "create_registry",
    "stored_settings",
]

REGISTRY: Final = "shape_cluster_members"
"""The registry table: one row per fingerprint ever clustered, never rewritten."""

MAX_ROUNDS: Final = 10_000
"""A guard: each round decides at least one sketch, so this many rounds means a bug."""

_TEMPS: Final = (
    "cluster_pending",
    "cluster_pending_bands",
    "cluster_pairs",
    "cluster_new_leaders",
    "cluster_decided",
    "cluster_round",
    "cluster_leader_matches",
    "cluster_expand",
)


@dataclass(frozen=True, slots=True)
class ClusterSettings:
    """The pre-registered clustering parameters (``[boilerplate]`` of the pre-registration)."""

    threshold: float = 0.9
    band_rows: int = 4
    band_count: int = 16

    def as_tuple(self) -> tuple[float, int, int]:
        return (self.threshold, self.band_rows, self.band_count)

    def params(self) -> dict[str, object]:
        return {
            "threshold": self.threshold,
            "band_rows": self.band_rows,
            "band_count": self.band_count,
        }


DEFAULT_CLUSTERS: Final = ClusterSettings()
"""The shipped pre-registration's settings (``[boilerplate]``); a test keeps them equal."""


@dataclass(frozen=True, slots=True)
class ClusterStats:
    """What one :func:`assign_shape_clusters` did."""

    shapes: int  # fingerprints added to the registry
    sketches: int  # distinct new sketches clustered
    rounds: int
    reclustered: bool  # the settings changed: the registry was rebuilt


def create_registry(cur: duckdb.DuckDBPyConnection, table: str = REGISTRY) -> None:
    """Create the registry if it does not exist."""
    temporary = "TEMP " if table.startswith("temp.") else ""
    cur.execute(
        f"""
        CREATE {temporary}TABLE IF NOT EXISTS {table} (
            fingerprint VARCHAR NOT NULL,   -- the shape (exact fingerprint): the member id
            language VARCHAR NOT NULL,      -- '' when unknown; clusters never cross languages
            sketch VARCHAR,                 -- NULL: no valid sketch, a cluster of its own
            first_seen TIMESTAMP_NS,        -- when the shape was first seen (visiting order)
            cluster_id VARCHAR NOT NULL,    -- the leader's fingerprint
            is_leader BOOLEAN NOT NULL,
            similarity DOUBLE,              -- estimated Jaccard similarity to the leader
            seq BIGINT NOT NULL,            -- visiting order; leaders found earlier come first
            threshold DOUBLE NOT NULL,      -- the settings it was clustered with
            band_rows BIGINT NOT NULL,
            band_count BIGINT NOT NULL,
            clustered_at TIMESTAMP NOT NULL
        )
        """
    )


def assign_shape_clusters(
    cur: duckdb.DuckDBPyConnection,
    settings: ClusterSettings,
    *,
    registry: str = REGISTRY,
) -> ClusterStats:
    """Add every fingerprint of ``session_fingerprints`` the registry lacks to a cluster.

    Reads ``session_fingerprints`` and ``shape_cluster_members`` by their
    unqualified names (TEMP views can narrow or redirect them: a reader
    clusters into a TEMP registry behind a TEMP view of that name) and appends
    to ``registry``, after emptying it when it was clustered with other
    settings; runs inside the caller's transaction.
    """
    create_registry(cur, registry)
    stored = stored_settings(cur, registry)
    reclustered = stored is not None and stored != settings
    if reclustered:
        cur.execute(f"DELETE FROM {registry}")
    params = settings.params()
    try:
        _temp(cur, "cluster_pending", _models.sql_text("cluster_pending"))
        sketches = _models.scalar_int(cur, "SELECT count(*) FROM cluster_pending")
        rounds = 0
        if sketches:
            rounds = _cluster_pending(cur, params)
        else:
            # Nothing new to compare (the usual refresh: known shapes only): skip
            # the band and pair statements, whose planning alone costs ~10 ms each.
            cur.execute(
                "CREATE OR REPLACE TEMP TABLE cluster_decided (fingerprint VARCHAR, "
                "language VARCHAR, sketch VARCHAR, cluster_id VARCHAR, is_leader BOOLEAN, "
                "similarity DOUBLE)"
            )
        _temp(cur, "cluster_expand", _models.sql_text("cluster_expand"))
        shapes = _models.scalar_int(cur, "SELECT count(*) FROM cluster_expand")
        cur.execute(
            f"""
            INSERT INTO {registry}
            SELECT fingerprint, language, sketch, first_seen, cluster_id, is_leader, similarity,
                   seq, ?, ?, ?, now()::TIMESTAMP
            FROM cluster_expand
            """,
            [settings.threshold, settings.band_rows, settings.band_count],
        )
    finally:
        for name in _TEMPS:
            cur.execute(f"DROP TABLE IF EXISTS temp.main.{name}")
    return ClusterStats(shapes=shapes, sketches=sketches, rounds=rounds, reclustered=reclustered)


def _cluster_pending(cur: duckdb.DuckDBPyConnection, params: dict[str, object]) -> int:
    """Cluster ``cluster_pending`` into ``cluster_decided`` (joining leaders, then rounds)."""
    _temp(cur, "cluster_pending_bands", _models.sql_text("cluster_pending_bands"), params)
    _temp(cur, "cluster_leader_matches", _models.sql_text("cluster_leader_matches"), params)
    cur.execute(
        """
        CREATE OR REPLACE TEMP TABLE cluster_decided AS
        SELECT p.fingerprint, p.language, p.sketch, m.cluster_id, FALSE AS is_leader,
               m.similarity
        FROM cluster_leader_matches AS m
        JOIN cluster_pending AS p ON p.fingerprint = m.fingerprint
        """
    )
    cur.execute(
        "DELETE FROM cluster_pending "
        "WHERE fingerprint IN (SELECT fingerprint FROM cluster_leader_matches)"
    )
    cur.execute(
        "DELETE FROM cluster_pending_bands "
        "WHERE fingerprint IN (SELECT fingerprint FROM cluster_leader_matches)"
    )
    _temp(cur, "cluster_pairs", _models.sql_text("cluster_pairs"), params)
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE cluster_new_leaders (fingerprint VARCHAR, seq BIGINT)"
    )
    rounds = 0
    while _models.scalar_int(cur, "SELECT count(*) FROM cluster_pending"):
        rounds += 1
        if rounds > MAX_ROUNDS:
            raise PipelineError("near-duplicate clustering made no progress (a bug)")
        _temp(cur, "cluster_round", _models.sql_text("cluster_round"))
        if not _models.scalar_int(cur, "SELECT count(*) FROM cluster_round"):
            raise PipelineError("near-duplicate clustering made no progress (a bug)")
        cur.execute(
            "INSERT INTO cluster_new_leaders "
            "SELECT fingerprint, seq FROM cluster_round WHERE is_leader"
        )
        cur.execute(
            "INSERT INTO cluster_decided SELECT fingerprint, language, sketch, cluster_id, "
            "is_leader, similarity FROM cluster_round"
        )
        cur.execute(
            "DELETE FROM cluster_pending "
            "WHERE fingerprint IN (SELECT fingerprint FROM cluster_round)"
        )
    return rounds


def stored_settings(
    cur: duckdb.DuckDBPyConnection, registry: str = REGISTRY
) -> ClusterSettings | None:
    """The settings the registry was clustered with; ``None`` when it is empty or absent."""
    try:
        rows = cur.execute(
            f"SELECT DISTINCT threshold, band_rows, band_count FROM {registry}"
        ).fetchall()
    except duckdb.CatalogException:
        return None
    if len(rows) != 1:
        # Mixed settings cannot happen (a change re-clusters from scratch); treat as changed.
        return None if not rows else ClusterSettings(-1.0, 0, 0)
    threshold, rows_, count = rows[0]
    return ClusterSettings(float(threshold), int(rows_), int(count))


def _temp(
    cur: duckdb.DuckDBPyConnection, name: str, sql: str, params: dict[str, object] | None = None
) -> None:
    """``CREATE TEMP TABLE name AS sql`` with the parameters ``sql`` names (``$name``)."""
    used = {key: value for key, value in (params or {}).items() if f"${key}" in sql}
    cur.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {sql}", used or None)


SWEEP: Final = (0.5, 0.6, 0.7, 0.8, 0.9)
"""Similarities the report re-clusters at, beside the pre-registered one."""


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """The boilerplate share if shapes were clustered at ``similarity`` (``None``: exact)."""

    similarity: float | None
    boilerplate_calls: int
    reading_calls: int
    clusters: int
    boilerplate_clusters: int

    @property
    def share(self) -> float | None:
        return self.boilerplate_calls / self.reading_calls if self.reading_calls else None


def boilerplate_sweep(
    shapes: pa.Table | Sequence[tuple[Any, ...]],
    reading_calls: int,
    min_other_sessions: int,
    base: ClusterSettings,
    similarities: tuple[float, ...] | None = None,
) -> list[SweepPoint]:
    """Re-cluster a scope's shapes from scratch at each similarity; the exact share first.

    The similarities are :data:`SWEEP` and the registered one (``base``'s
    threshold), in order, unless given.

    ``shapes`` are ``session_fingerprints`` rows ``(session_id, fingerprint,
    sketch, example_language, first_seen, calls)``, best as an Arrow table
    (``relation.fetch_arrow_table()``: one columnar copy; tuples are
    converted to one). Each point clusters them in a private in-memory
    database (first-seen order, ``base``'s bands), so the reader's own
    tables are untouched; a point is a point estimate, never a verdict.
    """
    table = shapes if isinstance(shapes, pa.Table) else _shape_table(shapes)
    con = duckdb.connect()
    try:
        _models.install_dialect(con)
        con.register("sweep_shapes", table)
        con.execute(
            "CREATE TABLE sweep_all_shapes AS SELECT CAST(session_id AS VARCHAR) AS session_id, "
            "CAST(fingerprint AS VARCHAR) AS fingerprint, CAST(sketch AS VARCHAR) AS sketch, "
            "CAST(example_language AS VARCHAR) AS example_language, "
            "CAST(first_seen AS TIMESTAMP_NS) AS first_seen, CAST(calls AS BIGINT) AS calls "
            "FROM sweep_shapes"
        )
        con.unregister("sweep_shapes")
        # Only shapes with a usable sketch are clustered; the others stay clusters
        # of their own (the points count them through sweep_all_shapes).
        con.execute(
            "CREATE TABLE session_fingerprints AS SELECT * FROM sweep_all_shapes "
            "WHERE valid_sketch(sketch)"
        )
        points = [_sweep_point(con, None, reading_calls, min_other_sessions)]
        if similarities is None:
            similarities = tuple(sorted({*SWEEP, base.threshold}))
        for similarity in similarities:
            settings = ClusterSettings(similarity, base.band_rows, base.band_count)
            assign_shape_clusters(con, settings)
            points.append(_sweep_point(con, similarity, reading_calls, min_other_sessions))
    finally:
        con.close()
    return points


_SHAPE_COLUMNS: Final = (
    "session_id",
    "fingerprint",
    "sketch",
    "example_language",
    "first_seen",
    "calls",
)


def _shape_table(rows: Sequence[tuple[Any, ...]]) -> pa.Table:
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in _SHAPE_COLUMNS]
    types = [pa.string(), pa.string(), pa.string(), pa.string(), pa.timestamp("ns"), pa.int64()]
    return pa.table(
        {
            name: pa.array(list(values), type=kind)
            for name, values, kind in zip(_SHAPE_COLUMNS, columns, types, strict=True)
        }
    )


def _sweep_point(
    con: duckdb.DuckDBPyConnection,
    similarity: float | None,
    reading_calls: int,
    min_other_sessions: int,
) -> SweepPoint:
    members = (
        "SELECT f.session_id, f.calls, f.fingerprint AS cluster_id FROM sweep_all_shapes AS f"
        if similarity is None
        else "SELECT f.session_id, f.calls, coalesce(r.cluster_id, f.fingerprint) AS cluster_id "
        f"FROM sweep_all_shapes AS f LEFT JOIN {REGISTRY} AS r USING (fingerprint)"
    )
    row = con.execute(
        f"""
        WITH members AS ({members}),
        per_cluster AS (
            SELECT cluster_id, count(DISTINCT session_id) - 1 >= $s AS is_boilerplate
            FROM members GROUP BY cluster_id
        )
        SELECT
            coalesce(sum(CASE WHEN p.is_boilerplate THEN m.calls ELSE 0 END), 0),
            (SELECT count(*) FROM per_cluster),
            (SELECT count(*) FROM per_cluster WHERE is_boilerplate)
        FROM members AS m JOIN per_cluster AS p USING (cluster_id)
        """,
        {"s": min_other_sessions},
    ).fetchall()[0]
    return SweepPoint(similarity, int(row[0] or 0), reading_calls, int(row[1]), int(row[2]))
