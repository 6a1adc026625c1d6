"""Evidence tables: typed projections of raw spans, built by the SQL in ``sql/``.

The SQL is laid out by what it builds: ``sql/span_models/``,
``sql/session_models/``, ``sql/audits/``, ``sql/macros/`` (the dialect) and
``sql/fixtures/`` (tables and spans for tests and benchmarks, never evidence);
a file is found by its name alone.

Two tiers, each model one file named after the table it builds:

- **span models** (:data:`SPAN_MODELS`: ``calls``, ``history_access``,
  ``field_reads``, ``read_depths``, ``delegations``, ``trims``,
  ``boundary_shifts``, ``session_fingerprints``, ``session_activity``) read ``otel_traces`` or each other and are
  partitionable by session: every row depends only on spans of its own
  session. An incremental :func:`refresh` recomputes just the affected
  sessions (delete + insert per session).
- **session models** (:data:`SESSION_MODELS`: ``evidence_params``,
  ``code_clusters``, ``sessions``, ``session_criteria``, ``evidence``,
  ``coverage``) read only the span-model tables. Boilerplate is a
  cross-session quantity (one new session can make a code shape boilerplate
  for every session using it), so an incremental refresh merges the
  clusters the scope touched, then recomputes ``sessions`` and
  ``session_criteria`` for the scope plus the sessions whose clusters
  flipped, and rebuilds the two single-row aggregates.

Models run unchanged in three places: the database itself (full refresh), a
private cursor whose TEMP tables hold only the affected sessions' spans
(incremental refresh: TEMP objects shadow the same-named tables for
unqualified names), and a private cursor whose TEMP views filter the stored
evidence (:class:`EvidenceView`, used by reports on read-only connections).
Engine-specific SQL sits in ``sql/macros/_dialect.sql`` only; see ``docs/evidence.md``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

import duckdb

from recurscope.instrumentation import semconv as sc

from ..errors import PipelineError
from .clusters import (
    DEFAULT_CLUSTERS,
    REGISTRY,
    ClusterSettings,
    assign_shape_clusters,
    stored_settings,
)

__all__ = [
    "AUDITS",
    "DEFAULT_LATENESS",
    "DEFAULT_MIN_OTHER_SESSIONS",
    "RECURSCOPE_SPAN_NAMES",
    "REFRESH_LOG",
    "SESSION_MODELS",
    "SPAN_MODELS",
    "SQL_DIR",
    "RefreshResult",
    "install_dialect",
    "models_version",
    "refresh",
    "run_audits",
    "sql_text",
]


SQL_DIR: Final = Path(__file__).with_name("sql")
"""Folder of the SQL, one file per table, audit, macro set or fixture, in subfolders by kind."""


RECURSCOPE_SPAN_NAMES: Final = (sc.SPAN_CALL, sc.SPAN_TRIM, sc.SPAN_BOUNDARY_SHIFT)
"""The span names the evidence reads; every other span in ``otel_traces`` is ignored."""


SPAN_MODELS: Final = (
    "calls",
    "history_access",
    "field_reads",
    "read_depths",
    "delegations",
    "trims",
    "boundary_shifts",
    "session_fingerprints",
    "session_activity",
)
"""Tables built from spans, in dependency order; every row depends on its own session only."""


DERIVED_SPAN_MODELS: Final = (
    "history_access",
    "field_reads",
    "read_depths",
    "session_fingerprints",
    "session_activity",
)


SESSION_MODELS: Final = (
    "evidence_params",
    "code_clusters",
    "shape_clusters",
    "sessions",
    "session_criteria",
    "evidence",
    "coverage",
)
"""Tables built from the span-model tables, in dependency order.

``sessions`` and ``session_criteria`` are partitioned by session too;
``code_clusters`` by fingerprint, ``shape_clusters`` by near-duplicate
cluster (``clusters.py`` assigns new fingerprints to clusters first);
``evidence`` and ``coverage`` are single aggregates rebuilt on every refresh.
"""


AUDITS: Final = tuple(sorted(path.stem for path in (SQL_DIR / "audits").glob("audit_*.sql")))
"""Audit queries (``sql/audits/audit_*.sql``): each must return zero rows on sound evidence."""


REFRESH_LOG: Final = "evidence_refresh_log"
"""Table with one row per refresh: mode, sessions, watermark, timing, SQL version."""


DEFAULT_MIN_OTHER_SESSIONS: Final = 4
"""S of the shipped pre-registration (``data/preregistration.toml``); a test keeps them equal."""


DEFAULT_LATENESS: Final = timedelta(minutes=10)
"""How far before the watermark an incremental refresh looks for new spans.

Spans are exported when they *end*, so a long call can arrive after a refresh
that already saw later-starting spans. Late spans beyond this margin are still
found (the span ledger check triggers a per-session sweep); the margin only
decides how often that slower sweep is needed.
"""


# Tables with one row per recurscope span (calls, trims, boundary shifts).
SPAN_ROW_TABLES: Final = ("calls", "trims", "boundary_shifts")


SPAN_NAME_LIST: Final = ", ".join(f"'{name}'" for name in RECURSCOPE_SPAN_NAMES)


_SESSION_EXPR: Final = "attr_str(SpanAttributes, 'gen_ai.conversation.id')"


RefreshMode = Literal["full", "incremental", "sessions"]


@cache
def _sql_paths() -> dict[str, Path]:
    return {path.stem: path for path in sorted(SQL_DIR.glob("*/*.sql"))}


@cache
def sql_text(name: str) -> str:
    """The text of ``sql/<kind>/<name>.sql`` (a model, an audit, or a helper like ``_dialect``)."""
    path = _sql_paths().get(name)
    try:
        if path is None:
            raise FileNotFoundError(name)
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PipelineError(
            f"No SQL file {name}.sql under {SQL_DIR}: the installation is incomplete "
            "(reinstall recurscope[pipeline])."
        ) from None


def models_version() -> str:
    """SHA-256 (16 hex digits) of the dialect and every model's SQL.

    Stored with each refresh: when the SQL changes, the next refresh is a full
    one, since rows built by older SQL cannot be patched session by session.
    """
    digest = hashlib.sha256()
    for name in ("_dialect", *SPAN_MODELS, *SESSION_MODELS, "code_clusters_merge"):
        digest.update(name.encode())
        digest.update(sql_text(name).encode())
    return digest.hexdigest()[:16]


def install_dialect(con: duckdb.DuckDBPyConnection) -> None:
    """Define the TEMP macros the models use (``sql/macros/_dialect.sql``) on ``con``."""
    con.execute(sql_text("_dialect"))


@dataclass(frozen=True, slots=True)
class RefreshResult:
    """What a :func:`refresh` did.

    ``mode`` is ``full``, ``incremental`` (sessions derived from new spans)
    or ``sessions`` (the caller's list). ``sessions_refreshed`` counts the
    sessions whose span-model rows were replaced (all of them for a full
    refresh); ``late_spans`` how many spans the fast path missed and the
    exact span ledger check caught (late arrivals older than the lateness
    margin, deletions; at least 1 when the check fired).
    ``spans_read`` is the recurscope spans the span models read;
    ``watermark`` the latest span start seen.
    """

    mode: RefreshMode
    sessions_refreshed: int
    spans_read: int
    seconds: float
    watermark: datetime | None
    late_spans: int = 0
    reason: str = ""


@dataclass(frozen=True, slots=True)
class _LastRefresh:
    watermark: datetime | None
    models_version: str
    min_other_sessions: int


def refresh(
    con: duckdb.DuckDBPyConnection,
    sessions: Iterable[str | None] | None = None,
    *,
    full: bool = False,
    min_other_sessions: int | None = None,
    lateness: timedelta = DEFAULT_LATENESS,
    clusters: ClusterSettings | None = None,
) -> RefreshResult:
    """Bring the evidence tables up to date with ``otel_traces``.

    With ``sessions=None`` the affected sessions are derived: those with a
    recurscope span starting after the last refresh's watermark minus
    ``lateness``, plus any session whose span count no longer matches its
    evidence rows (late arrivals, deletions). With a list, exactly those
    sessions are recomputed (``None`` in the list means spans without a
    session). The first refresh, ``full=True``, or SQL that changed since
    the last refresh rebuild everything.

    ``min_other_sessions`` is S of the boilerplate criterion; ``None`` keeps
    the value of the last refresh (:data:`DEFAULT_MIN_OTHER_SESSIONS` at
    first). ``clusters`` are the near-duplicate clustering settings; ``None``
    keeps the registry's (:data:`DEFAULT_CLUSTERS` at first); new settings
    re-cluster from scratch (a full refresh). Runs in a private cursor and commits the evidence in one
    transaction, so readers never see span and session tables disagree.
    """
    started = time.perf_counter()
    cur = con.cursor()
    try:
        install_dialect(cur)
        target = Target.of(cur)
        if not target.has_table("otel_traces"):
            raise PipelineError(
                "No otel_traces table in the database: ingest spans first "
                "(recurscope ingest FILE), or create it with create_otel_traces_table()."
            )
        existing = target.tables()
        last = _last_refresh(cur, target) if REFRESH_LOG in existing else None
        s_value = (
            min_other_sessions
            if min_other_sessions is not None
            else (last.min_other_sessions if last else DEFAULT_MIN_OTHER_SESSIONS)
        )
        stored = stored_settings(cur, target.q(REGISTRY)) if REGISTRY in existing else None
        settings = clusters or stored or DEFAULT_CLUSTERS
        reason = ""
        if last is None:
            reason = "first refresh"
        elif last.models_version != models_version():
            reason = "evidence SQL changed since the last refresh"
        elif not existing.issuperset((*SPAN_MODELS, *SESSION_MODELS)):
            reason = "evidence tables missing"
        elif full:
            reason = "full refresh requested"
        elif stored is not None and stored != settings:
            reason = "near-duplicate clustering settings changed"
        if reason:
            result = _full_refresh(cur, target, s_value, settings, started, reason)
        else:
            assert last is not None
            result = _incremental_refresh(
                cur, target, last, sessions, s_value, settings, lateness, started
            )
    finally:
        cur.close()
    # The logged time stops before COMMIT (the log row is part of the
    # transaction); the returned one includes the commit and any checkpoint.
    return dataclasses.replace(result, seconds=time.perf_counter() - started)


@dataclass(frozen=True, slots=True)
class Target:
    """Where the evidence lives: the cursor's current catalog and schema."""

    catalog: str
    schema: str
    cur: duckdb.DuckDBPyConnection

    @classmethod
    def of(cls, cur: duckdb.DuckDBPyConnection) -> Target:
        row = first_row(cur.execute("SELECT current_database(), current_schema()").fetchall())
        assert row is not None
        return cls(str(row[0]), str(row[1]), cur)

    def q(self, table: str) -> str:
        """The fully qualified name, immune to TEMP tables of the same name."""
        return f'"{self.catalog}"."{self.schema}"."{table}"'

    def tables(self) -> frozenset[str]:
        """Tables and views in the target schema (read once per call: cheap, not cached)."""
        rows = self.cur.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = $c AND schema_name = $s "
            "UNION ALL SELECT view_name FROM duckdb_views() "
            "WHERE database_name = $c AND schema_name = $s",
            {"c": self.catalog, "s": self.schema},
        ).fetchall()
        return frozenset(str(row[0]) for row in rows)

    def has_table(self, table: str) -> bool:
        return table in self.tables()


def first_row(rows: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The first row, or None. Results are always fetched to the end (``fetchall``):
    a half-read result keeps the connection busy for the caller's next query."""
    return rows[0] if rows else None


def scalar_int(con: duckdb.DuckDBPyConnection, sql: str, params: Any = None) -> int:
    row = first_row(con.execute(sql, params).fetchall())
    return int(row[0]) if row is not None and row[0] is not None else 0


def _last_refresh(cur: duckdb.DuckDBPyConnection, target: Target) -> _LastRefresh | None:
    row = first_row(
        cur.execute(
            f"SELECT watermark, models_version, min_other_sessions FROM {target.q(REFRESH_LOG)} "
            "ORDER BY refreshed_at DESC, seq DESC LIMIT 1"
        ).fetchall()
    )
    if row is None:
        return None
    return _LastRefresh(row[0], str(row[1]), int(row[2]))


def _ensure_log(cur: duckdb.DuckDBPyConnection, target: Target) -> None:
    cur.execute(
        f"""
        CREATE TABLE IF NOT EXISTS {target.q(REFRESH_LOG)} (
            seq BIGINT,                   -- 1, 2, ... in refresh order
            refreshed_at TIMESTAMP,       -- UTC, when the refresh committed
            mode VARCHAR,                 -- full, incremental, sessions
            reason VARCHAR,               -- why a full refresh, or ''
            sessions_refreshed BIGINT,    -- sessions whose span-model rows were replaced
            late_spans BIGINT,            -- spans only the exact span-count check caught
            spans_read BIGINT,            -- recurscope spans the span models read
            spans_total BIGINT,           -- recurscope spans in otel_traces at refresh
            watermark TIMESTAMP_NS,       -- latest span start the evidence covers
            seconds DOUBLE,               -- wall time of the refresh
            models_version VARCHAR,       -- models_version() of the SQL used
            min_other_sessions BIGINT     -- S used for boilerplate
        )
        """
    )


def _log_refresh(
    cur: duckdb.DuckDBPyConnection,
    target: Target,
    result: RefreshResult,
    spans_total: int,
    s_value: int,
) -> None:
    cur.execute(
        f"""
        INSERT INTO {target.q(REFRESH_LOG)}
        SELECT coalesce((SELECT max(seq) FROM {target.q(REFRESH_LOG)}), 0) + 1,
               ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
        """,
        [
            datetime.now(UTC).replace(tzinfo=None),
            result.mode,
            result.reason,
            result.sessions_refreshed,
            result.late_spans,
            result.spans_read,
            spans_total,
            result.watermark,
            result.seconds,
            models_version(),
            s_value,
        ],
    )


def build_session_models(
    cur: duckdb.DuckDBPyConnection,
    create: str,
    s_value: int,
    qualify: Any = None,
    *,
    clusters: ClusterSettings = DEFAULT_CLUSTERS,
    registry: str | None = None,
) -> None:
    """Build every session model with ``create`` ('CREATE OR REPLACE TABLE x' style).

    New code shapes are first added to near-duplicate clusters in
    ``registry`` (default: ``shape_cluster_members`` where the tables go);
    the models read the registry by its unqualified name.
    """
    for name in SESSION_MODELS:
        target_name = qualify(name) if qualify else name
        if name == "shape_clusters":
            default = qualify(REGISTRY) if qualify else REGISTRY
            assign_shape_clusters(cur, clusters, registry=registry or default)
        params = (
            {
                "boilerplate_min_other_sessions": s_value,
                "boilerplate_similarity": clusters.threshold,
            }
            if name == "evidence_params"
            else None
        )
        cur.execute(f"{create} {target_name} AS {sql_text(name)}", params)


def _full_refresh(
    cur: duckdb.DuckDBPyConnection,
    target: Target,
    s_value: int,
    clusters: ClusterSettings,
    started: float,
    reason: str,
) -> RefreshResult:
    cur.execute("BEGIN TRANSACTION")
    try:
        _ensure_log(cur, target)
        for name in SPAN_MODELS:
            cur.execute(f"CREATE OR REPLACE TABLE {target.q(name)} AS {sql_text(name)}")
        build_session_models(cur, "CREATE OR REPLACE TABLE", s_value, target.q, clusters=clusters)
        spans = scalar_int(
            cur,
            f"SELECT count(*) FROM {target.q('otel_traces')} WHERE SpanName IN ({SPAN_NAME_LIST})",
        )
        sessions = scalar_int(cur, f"SELECT count(*) FROM {target.q('sessions')}")
        watermark_row = first_row(
            cur.execute(
                f'SELECT max("Timestamp") FROM {target.q("otel_traces")} '
                f"WHERE SpanName IN ({SPAN_NAME_LIST})"
            ).fetchall()
        )
        watermark = watermark_row[0] if watermark_row else None
        result = RefreshResult(
            mode="full",
            sessions_refreshed=sessions,
            spans_read=spans,
            seconds=time.perf_counter() - started,
            watermark=watermark,
            reason=reason,
        )
        _log_refresh(cur, target, result, spans, s_value)
        cur.execute("COMMIT")
    except BaseException:
        cur.execute("ROLLBACK")
        raise
    return result


def _in_scope(column: str, scope: str = "refresh_scope") -> str:
    # NULL-safe membership: spans without a session form a "session" of their own.
    return (
        f"({column} IN (SELECT session_id FROM {scope} WHERE session_id IS NOT NULL) "
        f"OR ({column} IS NULL AND EXISTS "
        f"(SELECT 1 FROM {scope} WHERE session_id IS NULL)))"
    )


def _incremental_refresh(
    cur: duckdb.DuckDBPyConnection,
    target: Target,
    last: _LastRefresh,
    sessions: Iterable[str | None] | None,
    s_value: int,
    clusters: ClusterSettings,
    lateness: timedelta,
    started: float,
) -> RefreshResult:
    raw = target.q("otel_traces")
    cur.execute("CREATE OR REPLACE TEMP TABLE refresh_scope (session_id VARCHAR)")
    late_spans = 0
    try:
        if sessions is not None:
            mode: RefreshMode = "sessions"
            wanted = sorted(set(sessions), key=lambda s: (s is None, s or ""))
            if wanted:
                cur.executemany("INSERT INTO refresh_scope VALUES (?)", [[s] for s in wanted])
            since = None
        else:
            mode = "incremental"
            since = last.watermark - lateness if last.watermark is not None else None
            # Candidates: sessions with a span starting after the margin. The
            # Timestamp filter comes first so row groups wholly before it are
            # skipped (DuckDB's zone maps) before any attribute is read.
            cur.execute(
                f"""
                INSERT INTO refresh_scope
                SELECT DISTINCT {_SESSION_EXPR}
                FROM {raw}
                WHERE "Timestamp" >= coalesce(CAST(? AS TIMESTAMP_NS), TIMESTAMP_NS '-infinity')
                  AND SpanName IN ({SPAN_NAME_LIST})
                """,
                [since],
            )
        _copy_scoped_spans(cur, raw, _scope_start(cur, target, since))
        if mode == "incremental":
            late_spans = _sweep_if_counts_disagree(cur, target, raw)
        scoped_sessions = scalar_int(cur, "SELECT count(*) FROM refresh_scope")
        spans_read = scalar_int(cur, "SELECT count(*) FROM temp.main.otel_traces")
        watermark_row = first_row(
            cur.execute('SELECT max("Timestamp") FROM temp.main.otel_traces').fetchall()
        )
        new_mark = watermark_row[0] if watermark_row else None
        watermark = last.watermark
        if mode == "incremental" and new_mark is not None:
            watermark = new_mark if watermark is None else max(watermark, new_mark)
        # Run the span models over the scoped spans: TEMP tables shadow the
        # real ones for the models' unqualified names. Then rename them, so
        # nothing shadows the real tables any more.
        for name in SPAN_MODELS:
            cur.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {sql_text(name)}")
        cur.execute("DROP TABLE temp.main.otel_traces")
        for name in SPAN_MODELS:
            cur.execute(f"DROP TABLE IF EXISTS temp.main.scoped_{name}")
            cur.execute(f"ALTER TABLE temp.main.{name} RENAME TO scoped_{name}")

        cur.execute("BEGIN TRANSACTION")
        try:
            # The scope's code shapes before the refresh, and every fingerprint
            # the scope used before or after: only those clusters change.
            cur.execute(
                f"""
                CREATE OR REPLACE TEMP TABLE scope_fingerprints_before AS
                SELECT * FROM {target.q("session_fingerprints")}
                WHERE {_in_scope("session_id")}
                """
            )
            cur.execute(
                """
                CREATE OR REPLACE TEMP TABLE touched_fingerprints AS
                SELECT fingerprint FROM scope_fingerprints_before
                UNION
                SELECT fingerprint FROM temp.main.scoped_session_fingerprints
                """
            )
            for name in SPAN_MODELS:
                _replace_rows(cur, target, name, "refresh_scope", f"temp.main.scoped_{name}")
            if s_value != last.min_other_sessions:
                # A new S can flip any cluster: rebuild every session model.
                build_session_models(
                    cur, "CREATE OR REPLACE TABLE", s_value, target.q, clusters=clusters
                )
            else:
                _refresh_session_models(cur, target, clusters)
            spans_total = scalar_int(
                cur, f"SELECT count(*) FROM {raw} WHERE SpanName IN ({SPAN_NAME_LIST})"
            )
            result = RefreshResult(
                mode=mode,
                sessions_refreshed=scoped_sessions,
                spans_read=spans_read,
                seconds=time.perf_counter() - started,
                watermark=watermark,
                late_spans=late_spans,
            )
            _log_refresh(cur, target, result, spans_total, s_value)
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
    finally:
        leftovers = (
            "refresh_scope",
            "otel_traces",
            "touched_fingerprints",
            "scope_fingerprints_before",
            "merged_clusters",
            "new_clusters",
            "flipped_fingerprints",
            "affected_sessions",
            "touched_clusters",
            "shape_clusters_before",
            "new_shape_clusters",
            *SPAN_MODELS,
            *SESSION_MODELS,
            *(f"scoped_{m}" for m in SPAN_MODELS),
        )
        _drop_temps(cur, leftovers)
    return result


def _drop_temps(cur: duckdb.DuckDBPyConnection, names: Iterable[str]) -> None:
    """Drop those of the TEMP tables and views ``names`` that exist (also after errors)."""
    wanted = set(names)
    existing = cur.execute(
        "SELECT 'VIEW', view_name FROM duckdb_views() WHERE database_name = 'temp' "
        "UNION ALL SELECT 'TABLE', table_name FROM duckdb_tables() WHERE database_name = 'temp'"
    ).fetchall()
    for kind, name in existing:
        if name in wanted:
            cur.execute(f"DROP {kind} temp.main.{name}")


def _replace_rows(
    cur: duckdb.DuckDBPyConnection, target: Target, table: str, scope: str, source: str
) -> None:
    """Delete the scope sessions' rows of ``table`` and insert ``source`` in their place."""
    cur.execute(f"DELETE FROM {target.q(table)} WHERE {_in_scope('session_id', scope)}")
    cur.execute(f"INSERT INTO {target.q(table)} BY NAME SELECT * FROM {source}")


def _refresh_session_models(
    cur: duckdb.DuckDBPyConnection, target: Target, clusters: ClusterSettings
) -> None:
    """Bring the session models up to date after the scope's span rows were replaced.

    Runs inside the refresh transaction, after the span tables are current.
    Clusters are merged for the touched fingerprints only
    (``code_clusters_merge.sql``, falling back to ``code_clusters.sql`` for
    the few it cannot merge exactly); sessions and their criteria are
    recomputed for the scope plus every session using a fingerprint whose
    boilerplate status flipped; evidence and coverage in full (one aggregate
    each, over small tables).
    """
    fingerprints = target.q("session_fingerprints")
    # Merge each touched cluster from its old row and the scope's rows, so the
    # few clusters spanning every session are not re-read on every refresh.
    cur.execute(
        f"CREATE OR REPLACE TEMP TABLE merged_clusters AS {sql_text('code_clusters_merge')}"
    )
    if scalar_int(cur, "SELECT count(*) FROM merged_clusters WHERE needs_recompute"):
        # A minimum, maximum or example came from a refreshed session and
        # the new rows do not reach it: recompute those clusters from all
        # their sessions (a view, so the filter is pushed into the scan).
        cur.execute(
            f"""
            CREATE OR REPLACE TEMP VIEW session_fingerprints AS
            SELECT * FROM {fingerprints}
            WHERE fingerprint IN (SELECT fingerprint FROM merged_clusters WHERE needs_recompute)
            """
        )
        cur.execute(f"CREATE OR REPLACE TEMP TABLE new_clusters AS {sql_text('code_clusters')}")
        cur.execute("DROP VIEW temp.main.session_fingerprints")
    else:
        cur.execute(
            f"CREATE OR REPLACE TEMP TABLE new_clusters AS SELECT * FROM "
            f"{target.q('code_clusters')} LIMIT 0"
        )
    cur.execute(
        "INSERT INTO new_clusters BY NAME SELECT * EXCLUDE (needs_recompute) "
        "FROM merged_clusters WHERE NOT needs_recompute AND sessions > 0"
    )
    cur.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE flipped_fingerprints AS
        SELECT touched.fingerprint
        FROM touched_fingerprints AS touched
        LEFT JOIN {target.q("code_clusters")} AS old ON old.fingerprint = touched.fingerprint
        LEFT JOIN new_clusters AS new ON new.fingerprint = touched.fingerprint
        WHERE coalesce(old.is_boilerplate, FALSE) <> coalesce(new.is_boilerplate, FALSE)
        """
    )
    cur.execute(
        f"DELETE FROM {target.q('code_clusters')} "
        "WHERE fingerprint IN (SELECT fingerprint FROM touched_fingerprints)"
    )
    cur.execute(f"INSERT INTO {target.q('code_clusters')} BY NAME SELECT * FROM new_clusters")
    _refresh_shape_clusters(cur, target, clusters)
    cur.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE affected_sessions AS
        SELECT session_id FROM refresh_scope
        UNION
        SELECT session_id FROM {fingerprints}
        WHERE fingerprint IN (SELECT fingerprint FROM flipped_fingerprints)
        """
    )
    # The affected sessions' span rows, shadowing the real tables for the
    # session models: the scope's rows are already in scoped_* tables; only
    # sessions pulled in by a flipped fingerprint (rare) are read back from
    # the real tables. code_clusters is read from the (now current) real table.
    flipped = scalar_int(cur, "SELECT count(*) FROM flipped_fingerprints")
    for name in SPAN_MODELS:
        extra = (
            f" UNION ALL BY NAME SELECT * FROM {target.q(name)} "
            f"WHERE {_in_scope('session_id', 'affected_sessions')} "
            f"AND NOT {_in_scope('session_id')}"
            if flipped
            else ""
        )
        cur.execute(
            f"CREATE OR REPLACE TEMP VIEW {name} AS SELECT * FROM temp.main.scoped_{name}{extra}"
        )
    for name in ("sessions", "session_criteria"):
        cur.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {sql_text(name)}")
    for name in SPAN_MODELS:
        cur.execute(f"DROP VIEW temp.main.{name}")
    for name in ("sessions", "session_criteria"):
        cur.execute(f"ALTER TABLE temp.main.{name} RENAME TO scoped_{name}")
        _replace_rows(cur, target, name, "affected_sessions", f"temp.main.scoped_{name}")
        cur.execute(f"DROP TABLE temp.main.scoped_{name}")
    for name in ("evidence", "coverage"):
        cur.execute(f"CREATE OR REPLACE TABLE {target.q(name)} AS {sql_text(name)}")


def _refresh_shape_clusters(
    cur: duckdb.DuckDBPyConnection, target: Target, clusters: ClusterSettings
) -> None:
    """Cluster the touched shapes the registry lacks, rebuild their clusters, note flips.

    New shapes come only from refreshed sessions, so the clustering reads the
    touched fingerprints alone; the clusters they belong to are rebuilt from
    all their members' sessions; fingerprints of a cluster whose boilerplate
    status flipped join ``flipped_fingerprints`` (their sessions are recomputed).
    """
    fingerprints, registry = target.q("session_fingerprints"), target.q(REGISTRY)
    cur.execute(
        f"""
        CREATE OR REPLACE TEMP VIEW session_fingerprints AS
        SELECT * FROM {fingerprints}
        WHERE fingerprint IN (SELECT fingerprint FROM touched_fingerprints)
        """
    )
    try:
        assign_shape_clusters(cur, clusters, registry=registry)
    finally:
        cur.execute("DROP VIEW temp.main.session_fingerprints")
    cur.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE touched_clusters AS
        SELECT DISTINCT coalesce(r.cluster_id, t.fingerprint) AS cluster_id
        FROM touched_fingerprints AS t
        LEFT JOIN {registry} AS r ON r.fingerprint = t.fingerprint
        """
    )
    cur.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE shape_clusters_before AS
        SELECT cluster_id, is_boilerplate FROM {target.q("shape_clusters")}
        WHERE cluster_id IN (SELECT cluster_id FROM touched_clusters)
        """
    )
    members = f"""
        SELECT f.* FROM {fingerprints} AS f
        LEFT JOIN {registry} AS r ON r.fingerprint = f.fingerprint
        WHERE coalesce(r.cluster_id, f.fingerprint) IN (SELECT cluster_id FROM touched_clusters)
    """
    cur.execute(f"CREATE OR REPLACE TEMP VIEW session_fingerprints AS {members}")
    try:
        cur.execute(
            f"CREATE OR REPLACE TEMP TABLE new_shape_clusters AS {sql_text('shape_clusters')}"
        )
    finally:
        cur.execute("DROP VIEW temp.main.session_fingerprints")
    cur.execute(
        f"DELETE FROM {target.q('shape_clusters')} "
        "WHERE cluster_id IN (SELECT cluster_id FROM touched_clusters)"
    )
    cur.execute(
        f"INSERT INTO {target.q('shape_clusters')} BY NAME SELECT * FROM new_shape_clusters"
    )
    cur.execute(
        f"""
        INSERT INTO flipped_fingerprints
        SELECT fingerprint FROM ({members}) AS m
        WHERE coalesce(
            (SELECT cluster_id FROM {registry} AS r WHERE r.fingerprint = m.fingerprint),
            m.fingerprint
        ) IN (
            SELECT t.cluster_id
            FROM touched_clusters AS t
            LEFT JOIN shape_clusters_before AS b ON b.cluster_id = t.cluster_id
            LEFT JOIN new_shape_clusters AS n ON n.cluster_id = t.cluster_id
            WHERE coalesce(b.is_boilerplate, FALSE) <> coalesce(n.is_boilerplate, FALSE)
        )
        """
    )


def _scope_start(
    cur: duckdb.DuckDBPyConnection, target: Target, since: datetime | None
) -> datetime | None:
    """Earliest span start the scope sessions can have, so older row groups are skipped.

    New spans start at or after ``since``; older spans of a scope session are
    already in the evidence tables, whose earliest ``started_at`` bounds them.
    ``None`` means no bound (explicit session lists: a session's first span
    may predate everything we know).
    """
    if since is None:
        return None
    parts = " UNION ALL ".join(
        f"SELECT started_at, session_id FROM {target.q(name)}" for name in SPAN_ROW_TABLES
    )
    row = first_row(
        cur.execute(
            f"SELECT min(started_at) FROM ({parts}) WHERE {_in_scope('session_id')}"
        ).fetchall()
    )
    earliest = row[0] if row else None
    return since if earliest is None else min(since, earliest)


def _copy_scoped_spans(cur: duckdb.DuckDBPyConnection, raw: str, since: datetime | None) -> None:
    cur.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE otel_traces AS
        SELECT *
        FROM {raw}
        WHERE "Timestamp" >= coalesce(CAST(? AS TIMESTAMP_NS), TIMESTAMP_NS '-infinity')
          AND SpanName IN ({SPAN_NAME_LIST})
          AND {_in_scope(_SESSION_EXPR)}
        """,
        [since],
    )


def _sweep_if_counts_disagree(cur: duckdb.DuckDBPyConnection, target: Target, raw: str) -> int:
    """Catch spans the fast path missed; return how many there were (0 almost always).

    The fast check compares two numbers over all recurscope spans — the
    count and a checksum of span ids — with the same numbers over the spans
    behind the evidence (`session_activity` outside the scope, plus the
    scope's fresh copy). They differ when a span arrived later than the
    lateness margin, started before its session's known first span, or was
    deleted; the checksum also catches a deletion and a late arrival that
    leave the count unchanged. Only then is the exact path run: sessions
    whose (count, checksum) differ from their evidence join the scope, and
    the scope's spans are copied again without a time bound.
    """
    activity = target.q("session_activity")
    totals = first_row(
        cur.execute(
            f"""
            SELECT
                (SELECT count(*) FROM {raw} WHERE SpanName IN ({SPAN_NAME_LIST}))
                - (SELECT count(*) FROM temp.main.otel_traces)
                - (SELECT coalesce(sum(spans), 0) FROM {activity}
                   WHERE NOT {_in_scope("session_id")}),
                (SELECT coalesce(sum(span_checksum(SpanId)), 0) FROM {raw}
                 WHERE SpanName IN ({SPAN_NAME_LIST}))
                - (SELECT coalesce(sum(span_checksum(SpanId)), 0) FROM temp.main.otel_traces)
                - (SELECT coalesce(sum(span_checksum), 0) FROM {activity}
                   WHERE NOT {_in_scope("session_id")})
            """
        ).fetchall()
    )
    assert totals is not None
    missed, checksum_gap = int(totals[0]), int(totals[1])
    if missed == 0 and checksum_gap == 0:
        return 0
    cur.execute(
        f"""
        INSERT INTO refresh_scope
        WITH raw_ledger AS (
            SELECT {_SESSION_EXPR} AS session_id, count(*) AS spans,
                sum(span_checksum(SpanId)) AS span_checksum
            FROM {raw}
            WHERE SpanName IN ({SPAN_NAME_LIST})
            GROUP BY ALL
        ),
        evidence_ledger AS (
            SELECT session_id, sum(spans) AS spans, sum(span_checksum) AS span_checksum
            FROM {activity}
            GROUP BY ALL
        )
        SELECT DISTINCT coalesce(r.session_id, e.session_id)
        FROM raw_ledger AS r
        FULL OUTER JOIN evidence_ledger AS e ON r.session_id IS NOT DISTINCT FROM e.session_id
        WHERE (coalesce(r.spans, 0) <> coalesce(e.spans, 0)
               OR coalesce(r.span_checksum, 0) <> coalesce(e.span_checksum, 0))
          AND NOT {_in_scope("coalesce(r.session_id, e.session_id)")}
        """
    )
    _copy_scoped_spans(cur, raw, None)
    return max(abs(missed), 1)


def run_audits(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[Any, ...]]]:
    """Run every ``sql/audit_*.sql``; map each audit to the rows it found (empty = sound)."""
    cur = con.cursor()
    try:
        install_dialect(cur)
        return {name: cur.execute(sql_text(name)).fetchall() for name in AUDITS}
    finally:
        cur.close()
