"""Filtered views of the evidence for reports and comparisons: EvidenceView, EvidenceFilter, SessionMatrix."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Final

import duckdb
import pyarrow as pa

from ..errors import PipelineError
from .clusters import DEFAULT_CLUSTERS, REGISTRY, ClusterSettings, create_registry, stored_settings
from .models import (
    DEFAULT_MIN_OTHER_SESSIONS,
    DERIVED_SPAN_MODELS,
    REFRESH_LOG,
    SESSION_MODELS,
    SPAN_MODELS,
    SPAN_NAME_LIST,
    SPAN_ROW_TABLES,
    Target,
    build_session_models,
    first_row,
    install_dialect,
    models_version,
    scalar_int,
    sql_text,
)

__all__ = [
    "EvidenceFilter",
    "EvidenceView",
    "SessionMatrix",
    "first_span_at",
    "origin_counts",
    "sql_literal",
]


def sql_literal(value: object) -> str:
    """``value`` as a SQL literal (text quoted by doubling ``'``), for view definitions.

    Views cannot take prepared-statement parameters, so filters are inlined;
    only this function turns values into SQL.
    """
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, datetime):
        naive = value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value
        return f"CAST('{naive.isoformat(sep=' ')}' AS TIMESTAMP_NS)"
    if isinstance(value, date):
        return f"DATE '{value.isoformat()}'"
    if isinstance(value, (list, tuple, frozenset, set)):
        return "[" + ", ".join(sql_literal(item) for item in value) + "]"
    text = str(value).replace("'", "''")
    return f"'{text}'"


_FILTERED_TABLES: Final = ("calls", "delegations", "trims", "boundary_shifts")


@dataclass(frozen=True, slots=True)
class EvidenceFilter:
    """Which evidence rows a view keeps; every field narrows, ``None`` keeps all.

    ``since``/``until`` bound span start times (``until`` exclusive),
    ``service`` the service name and ``prompt_version`` the prompt version,
    on every table. ``role`` keeps calls and
    delegations handled by that role, and trims and boundary shifts recorded
    inside such a call. ``predicates`` adds a SQL condition per table
    (``calls``, ``delegations``, ``trims``, ``boundary_shifts``), with values
    inlined through :func:`sql_literal`; comparisons use it to select a group.
    ``exploratory`` is false only for the pre-registered window itself.
    ``origins`` keeps rows whose ``recurscope.origin`` is one of these
    (``("observed",)`` for the headline of a store holding simulated spans).
    """

    since: datetime | None = None
    until: datetime | None = None
    service: str | None = None
    role: str | None = None
    prompt_version: str | None = None
    predicates: Mapping[str, str] = field(default_factory=dict)
    exploratory: bool = False
    origins: tuple[str, ...] | None = None
    """Keep rows of these ``recurscope.origin`` values only (``None``: every origin)."""

    def describe(self) -> str:
        """A one-line description of the narrowing ('' when none)."""
        parts = []
        if self.since is not None:
            parts.append(f"from {self.since.isoformat(sep=' ')}")
        if self.until is not None:
            parts.append(f"until {self.until.isoformat(sep=' ')}")
        if self.service is not None:
            parts.append(f"service = {self.service}")
        if self.role is not None:
            parts.append(f"role = {self.role}")
        if self.prompt_version is not None:
            parts.append(f"prompt version = {self.prompt_version}")
        if self.origins is not None:
            parts.append(f"origin = {' or '.join(self.origins) or 'none'}")
        return ", ".join(parts)

    def condition(self, table: str) -> str:
        """SQL condition rows of ``table`` must meet ('TRUE' when unfiltered)."""
        clauses: list[str] = []
        if self.since is not None:
            clauses.append(f"started_at >= {sql_literal(self.since)}")
        if self.until is not None:
            clauses.append(f"started_at < {sql_literal(self.until)}")
        if self.service is not None:
            clauses.append(f"service_name = {sql_literal(self.service)}")
        if self.role is not None:
            clauses.append(f"role = {sql_literal(self.role)}")
        if self.prompt_version is not None:
            clauses.append(f"prompt_version = {sql_literal(self.prompt_version)}")
        if self.origins is not None:
            values = ", ".join(sql_literal(o) for o in self.origins)
            clauses.append(f"origin IN ({values})" if values else "FALSE")
        extra = self.predicates.get(table)
        if extra:
            clauses.append(f"({extra})")
        return " AND ".join(clauses) or "TRUE"


@dataclass(frozen=True, slots=True)
class SessionMatrix:
    """Per-session numerators and denominators, one column per criterion.

    ``sessions`` is sorted, so the bootstrap's resamples depend only on the
    data and the seed, never on the order rows came back in.
    """

    sessions: tuple[str, ...]
    criteria: tuple[str, ...]
    numerators: Any  # numpy float64 array, sessions x criteria
    denominators: Any

    def column(self, criterion: str) -> tuple[Any, Any]:
        """Numerators and denominators of one criterion."""
        j = self.criteria.index(criterion)
        return self.numerators[:, j], self.denominators[:, j]


def _stale_reason(cur: duckdb.DuckDBPyConnection, target: Target) -> str:
    """'' when the stored span tables can be used, else why not."""
    existing = target.tables()
    has_spans = "otel_traces" in existing
    has_models = existing.issuperset(SPAN_MODELS)
    if not has_spans:
        if has_models:
            return ""  # evidence copied without raw spans: use it as it is
        raise PipelineError(
            "The database has neither otel_traces nor evidence tables: ingest spans "
            "first (recurscope ingest FILE)."
        )
    if not has_models or REFRESH_LOG not in existing:
        return "the evidence tables have not been built yet"
    row = first_row(
        cur.execute(
            f"SELECT spans_total, models_version FROM {target.q(REFRESH_LOG)} "
            "ORDER BY refreshed_at DESC, seq DESC LIMIT 1"
        ).fetchall()
    )
    if row is None:
        return "the evidence tables have not been built yet"
    if str(row[1]) != models_version():
        return "the evidence tables were built by other SQL"
    total = scalar_int(
        cur,
        f"SELECT count(*) FROM {target.q('otel_traces')} WHERE SpanName IN ({SPAN_NAME_LIST})",
    )
    if total != int(row[0]):
        return f"{total - int(row[0]):+,d} recurscope spans since the last refresh"
    return ""


def origin_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Recurscope spans per ``recurscope.origin`` (absent = ``observed``) in the store.

    Cheap when the stored evidence is current (it reads ``session_activity``);
    otherwise it counts the raw spans, which a stale store's readers do anyway.
    """
    cur = con.cursor()
    try:
        install_dialect(cur)
        target = Target.of(cur)
        if "otel_traces" in target.tables() and _stale_reason(cur, target):
            rows = cur.execute(
                "SELECT coalesce(attr_str(ResourceAttributes, 'recurscope.origin'), 'observed'), "
                f"count(*) FROM {target.q('otel_traces')} WHERE SpanName IN ({SPAN_NAME_LIST}) "
                "GROUP BY 1"
            ).fetchall()
        else:
            rows = cur.execute(
                f"SELECT origin, sum(spans) FROM {target.q('session_activity')} GROUP BY 1"
            ).fetchall()
        return {str(origin): int(spans) for origin, spans in rows if spans}
    finally:
        cur.close()


class EvidenceView:
    """Evidence for one scope (the window, a filter, a comparison group), in a private cursor.

    Works on read-only connections: everything it builds is a TEMP object of
    its own cursor, named like the model it holds, so the same SQL runs.
    When the database's span tables are current (the last refresh saw every
    recurscope span, with today's SQL) they are read through filtered TEMP
    views; otherwise they are computed from ``otel_traces`` here and
    ``stale_reason`` says why (the report shows it). The session models are
    always rebuilt here, with the pre-registered S.

    Use as a context manager; the cursor and its tables go on close.
    """

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        evidence_filter: EvidenceFilter | None = None,
        *,
        min_other_sessions: int = DEFAULT_MIN_OTHER_SESSIONS,
        clusters: ClusterSettings | None = None,
    ) -> None:
        self.filter = evidence_filter or EvidenceFilter()
        self.min_other_sessions = min_other_sessions
        self.clusters = clusters or DEFAULT_CLUSTERS
        self.stale_reason = ""
        self.stored_session_models = False
        self._cur = con.cursor()
        try:
            install_dialect(self._cur)
            self._target = Target.of(self._cur)
            self._build()
        except BaseException:
            self._cur.close()
            raise

    def __enter__(self) -> EvidenceView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Drop the view's tables (they belong to its cursor)."""
        self._cur.close()

    @property
    def computed_from_spans(self) -> bool:
        """True when the span tables were computed here because the stored ones were stale."""
        return bool(self.stale_reason)

    def _stored_tables_stale(self) -> str:
        """'' when the stored span tables can be used, else why not."""
        return _stale_reason(self._cur, self._target)

    def _build(self) -> None:
        cur, target, flt = self._cur, self._target, self.filter
        self.stale_reason = self._stored_tables_stale()
        if self.stale_reason:
            cur.execute(
                f"CREATE TEMP TABLE otel_traces AS SELECT * FROM {target.q('otel_traces')} "
                f"WHERE SpanName IN ({SPAN_NAME_LIST})"
            )
            for name in SPAN_MODELS:
                cur.execute(f"CREATE TEMP TABLE {name} AS {sql_text(name)}")
            cur.execute("DROP TABLE temp.main.otel_traces")
            narrowed = False
            for name in _FILTERED_TABLES:
                condition = flt.condition(name)
                if condition != "TRUE":
                    narrowed = True
                    cur.execute(
                        f"DELETE FROM temp.main.{name} WHERE NOT coalesce({condition}, FALSE)"
                    )
            if narrowed:
                for name in DERIVED_SPAN_MODELS:
                    cur.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {sql_text(name)}")
        else:
            narrowed = False
            for name in _FILTERED_TABLES:
                condition = flt.condition(name)
                narrowed = narrowed or condition != "TRUE"
                cur.execute(
                    f"CREATE TEMP VIEW {name} AS SELECT * FROM {target.q(name)} "
                    f"WHERE coalesce({condition}, FALSE)"
                )
            for name in DERIVED_SPAN_MODELS:
                if narrowed:
                    cur.execute(f"CREATE TEMP TABLE {name} AS {sql_text(name)}")
                else:
                    cur.execute(f"CREATE TEMP VIEW {name} AS SELECT * FROM {target.q(name)}")
            if not narrowed and self._stored_session_models_usable():
                # The whole store with the S the stored tables were built with:
                # they are exactly what rebuilding here would give.
                for name in SESSION_MODELS:
                    cur.execute(f"CREATE TEMP VIEW {name} AS SELECT * FROM {target.q(name)}")
                self.stored_session_models = True
                return
        build_session_models(
            cur,
            "CREATE TEMP TABLE",
            self.min_other_sessions,
            clusters=self.clusters,
            registry=self._private_registry(),
        )

    def _private_registry(self) -> str:
        """A TEMP copy of the stored cluster registry, shadowing its name; returns the copy's name.

        The view may be on a read-only connection and may see shapes the
        stored registry lacks (stale evidence) or want other settings (an
        amended pre-registration): it clusters those into its copy. With the
        stored settings, existing shapes keep their stored cluster ids.
        """
        cur, target = self._cur, self._target
        private = "temp.main.view_cluster_members"
        create_registry(cur, private)
        if (
            REGISTRY in target.tables()
            and stored_settings(cur, target.q(REGISTRY)) == self.clusters
        ):
            cur.execute(f"INSERT INTO {private} SELECT * FROM {target.q(REGISTRY)}")
        cur.execute(f"CREATE OR REPLACE TEMP VIEW {REGISTRY} AS SELECT * FROM {private}")
        return private

    def _stored_session_models_usable(self) -> bool:
        """True when the stored session tables exist and were built with this view's S."""
        target = self._target
        if not target.tables().issuperset(SESSION_MODELS):
            return False
        params = dict(
            self._cur.execute(f"SELECT name, value FROM {target.q('evidence_params')}").fetchall()
        )
        return (
            params.get("boilerplate_min_other_sessions") == self.min_other_sessions
            and params.get("boilerplate_similarity") == self.clusters.threshold
            and REGISTRY in target.tables()
            and stored_settings(self._cur, target.q(REGISTRY)) == self.clusters
        )

    def query(
        self, sql: str, params: Sequence[object] | Mapping[str, object] | None = None
    ) -> list[tuple[Any, ...]]:
        """Run ``sql`` against the view's tables (``calls``, ``sessions``, ``evidence``...)."""
        return self._cur.execute(sql, params).fetchall()

    def relation(self, sql: str) -> duckdb.DuckDBPyRelation:
        """``sql`` against the view's tables as a DuckDB relation (``.pl()``, ``.df()``...)."""
        return self._cur.sql(sql)

    def arrow(self, sql: str) -> pa.Table:
        """``sql`` against the view's tables as one Arrow table (a columnar copy, no Python rows)."""
        relation = self._cur.sql(sql)
        convert = getattr(relation, "to_arrow_table", None) or relation.fetch_arrow_table
        table: pa.Table = convert()
        return table

    def records(
        self, sql: str, params: Sequence[object] | Mapping[str, object] | None = None
    ) -> list[dict[str, Any]]:
        """Like :meth:`query`, each row as a dict keyed by column name."""
        result = self._cur.execute(sql, params)
        names = [d[0] for d in result.description or ()]
        return [dict(zip(names, row, strict=True)) for row in result.fetchall()]

    def session_matrix(self, criteria: Sequence[str] | None = None) -> SessionMatrix:
        """Per-session numerators/denominators of ``criteria`` (all when ``None``).

        Every session of the view is a row, also for criteria where it has
        nothing (0 / 0), so resampling rows is resampling sessions.
        """
        import numpy as np

        wanted = (
            tuple(criteria)
            if criteria is not None
            else tuple(
                str(row[0])
                for row in self._cur.execute(
                    "SELECT DISTINCT criterion FROM session_criteria ORDER BY criterion"
                ).fetchall()
            )
        )
        sessions = tuple(
            str(row[0])
            for row in self._cur.execute(
                "SELECT session_id FROM sessions ORDER BY session_id"
            ).fetchall()
        )
        num = np.zeros((len(sessions), len(wanted)), dtype=np.float64)
        den = np.zeros((len(sessions), len(wanted)), dtype=np.float64)
        if wanted and sessions:
            # Positions computed in SQL and scattered with numpy: a Python loop
            # over sessions x criteria rows costs seconds at 100,000 sessions.
            cells = self._cur.execute(
                """
                with session_index as (
                    select session_id, row_number() over (order by session_id) - 1 as i
                    from sessions
                ),
                criterion_index as (
                    select unnest(?) as criterion, generate_subscripts(?, 1) - 1 as j
                )
                select i, j, numerator, denominator
                from session_criteria
                join session_index using (session_id)
                join criterion_index using (criterion)
                """,
                [list(wanted), list(wanted)],
            ).fetchnumpy()
            rows = np.asarray(cells["i"], dtype=np.int64)
            cols = np.asarray(cells["j"], dtype=np.int64)
            num[rows, cols] = np.asarray(cells["numerator"], dtype=np.float64)
            den[rows, cols] = np.asarray(cells["denominator"], dtype=np.float64)
        return SessionMatrix(sessions, wanted, num, den)


def first_span_at(
    con: duckdb.DuckDBPyConnection,
    since: datetime | None = None,
    until: datetime | None = None,
) -> datetime | None:
    """Start of the earliest recurscope span in ``[since, until)`` (``None`` if none).

    Reads only the Timestamp and SpanName columns of ``otel_traces`` (or the
    span tables when the raw spans are absent): the pre-registration check
    needs the window's first span whatever view a report shows.
    """
    cur = con.cursor()
    try:
        target = Target.of(cur)
        bounds = (
            f"{sql_literal(since) if since else 'NULL'}",
            f"{sql_literal(until) if until else 'NULL'}",
        )
        if target.has_table("otel_traces"):
            sql = (
                f'SELECT min("Timestamp") FROM {target.q("otel_traces")} '
                f"WHERE SpanName IN ({SPAN_NAME_LIST}) "
                f'AND ("Timestamp" >= {bounds[0]} OR {bounds[0]} IS NULL) '
                f'AND ("Timestamp" < {bounds[1]} OR {bounds[1]} IS NULL)'
            )
        else:
            parts = " UNION ALL ".join(
                f"SELECT started_at FROM {target.q(n)}" for n in SPAN_ROW_TABLES
            )
            sql = (
                f"SELECT min(started_at) FROM ({parts}) "
                f"WHERE (started_at >= {bounds[0]} OR {bounds[0]} IS NULL) "
                f"AND (started_at < {bounds[1]} OR {bounds[1]} IS NULL)"
            )
        row = first_row(cur.execute(sql).fetchall())
        return row[0] if row else None
    finally:
        cur.close()
