"""What each dashboard page shows, read from the evidence tables.

One function per page (``*_data``) runs every query the page needs and
returns frozen data: polars frames and the report objects of
:mod:`recurscope.pipeline.verdict.report`. Nothing here imports Streamlit, so the
same functions serve the pages, their tests and ``bench/dashboard_bench.py``.

Rules the functions keep:

- They read the **evidence tables** the refresh keeps (``calls``,
  ``trims``, ``sessions``, ``code_clusters``, ``coverage``...), never the raw
  ``otel_traces``: a page costs the same at one million spans as at ten
  thousand plus what the typed tables hold.
- Numbers that the verdict report also shows come from the report's own
  functions (:func:`~recurscope.pipeline.verdict.report.build_report`,
  :func:`~recurscope.pipeline.verdict.compare.compare`), so the dashboard and
  ``recurscope report`` cannot disagree.
- Filters are :class:`Filters`, turned into SQL only by
  :class:`~recurscope.pipeline.evidence.views.EvidenceFilter` (values quoted by
  ``sql_literal``), so any text a span carried is data, never SQL.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Final

import duckdb
import polars as pl

from recurscope.pipeline.evidence.blind_runs import load_blind_runs
from recurscope.pipeline.evidence.clusters import DEFAULT_CLUSTERS
from recurscope.pipeline.evidence.models import REFRESH_LOG, SESSION_MODELS, SPAN_MODELS
from recurscope.pipeline.evidence.views import EvidenceFilter, EvidenceView
from recurscope.pipeline.verdict.compare import DIMENSIONS, Comparison, compare
from recurscope.pipeline.verdict.document import HistoryNeedsInfo, KnownError
from recurscope.pipeline.verdict.headline import headline_sweep, load_headline_sweep
from recurscope.pipeline.verdict.history_needs import history_needs
from recurscope.pipeline.verdict.markdown import history_needs_markdown
from recurscope.pipeline.verdict.report import Report, build_report, known_error
from recurscope.pipeline.verdict.rule import Preregistration, load_preregistration

__all__ = [
    "COMPARE_DIMENSIONS",
    "BoilerplateData",
    "BoilerplateSweep",
    "DataPageData",
    "DelegationData",
    "Filters",
    "GoalsData",
    "HistoryAccessData",
    "HistoryNeedsData",
    "SessionDetail",
    "StoreOverview",
    "TrimsData",
    "boilerplate_data",
    "boilerplate_sweep_data",
    "compare_data",
    "compare_groups",
    "data_page_data",
    "delegation_data",
    "delegation_tree",
    "goals_data",
    "history_access_data",
    "history_needs_data",
    "session_detail",
    "session_list",
    "store_overview",
    "trims_data",
    "verdict_data",
]

COMPARE_DIMENSIONS: Final = (*DIMENSIONS, "date")
"""What the Compare page can split by: the ``compare`` dimensions plus a date split."""

_SESSION_LIST_LIMIT: Final = 500
_TOP_TRACES: Final = 200
_QUARANTINE_SAMPLE: Final = 500
_MAX_TURN: Final = 40  # later plannings are pooled into the last turn bucket


@dataclass(frozen=True, slots=True)
class Filters:
    """The filters shared by every page; ``None`` keeps everything.

    ``start``/``end`` are inclusive UTC days. Any field set makes verdicts
    *exploratory* (only the pre-registered window gives the headline).
    """

    start: date | None = None
    end: date | None = None
    service: str | None = None
    role: str | None = None
    prompt_version: str | None = None
    include_simulated: bool = False
    """Use simulated and replayed spans too (the report's ``--include-simulated``)."""
    observed_only: bool = False
    """Keep observed spans only: set when the store holds others and they are not included."""

    @property
    def active(self) -> bool:
        """True when any filter narrows the data."""
        return any(
            v is not None
            for v in (self.start, self.end, self.service, self.role, self.prompt_version)
        )

    @property
    def since(self) -> datetime | None:
        return datetime.combine(self.start, time()) if self.start else None

    @property
    def until(self) -> datetime | None:
        return datetime.combine(self.end + timedelta(days=1), time()) if self.end else None

    def evidence_filter(self) -> EvidenceFilter:
        """The same narrowing as the report's ``EvidenceFilter``."""
        return EvidenceFilter(
            since=self.since,
            until=self.until,
            service=self.service,
            role=self.role,
            prompt_version=self.prompt_version,
            exploratory=self.active,
            origins=("observed",) if self.observed_only and not self.include_simulated else None,
        )

    def where(self, table: str) -> str:
        """SQL condition for rows of an evidence table (``calls``, ``trims``...)."""
        return f"coalesce({self.evidence_filter().condition(table)}, FALSE)"

    def describe(self) -> str:
        """One line naming the narrowing ('' when none)."""
        parts = []
        if self.start or self.end:
            parts.append(f"{self.start or '…'} to {self.end or '…'}")
        for label, value in (
            ("service", self.service),
            ("role", self.role),
            ("prompt version", self.prompt_version),
        ):
            if value is not None:
                parts.append(f"{label} = {value}")
        return ", ".join(parts)


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: Any = None) -> pl.DataFrame:
    """Rows of ``sql`` as a polars frame; DuckDB's DECIMAL sums become plain numbers.

    ``sum()`` of integers is a DECIMAL(38, 0) in DuckDB, and polars divides
    decimals at their scale (0): a share would round to 0 or 1.
    """
    cur = con.cursor()
    try:
        frame: pl.DataFrame = cur.sql(sql, params=params).pl()
    finally:
        cur.close()
    return _plain(frame)


def _report_view(
    con: duckdb.DuckDBPyConnection, flt: Filters, prereg: Preregistration
) -> EvidenceView:
    """The report's scope for these filters: its S and clustering settings."""
    return EvidenceView(
        con,
        flt.evidence_filter(),
        min_other_sessions=prereg.min_other_sessions,
        clusters=prereg.clusters,
    )


def _plain(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with DuckDB's DECIMAL sums cast to integers or floats."""
    casts = [
        pl.col(name).cast(pl.Int64 if dtype.scale == 0 else pl.Float64)
        for name, dtype in frame.schema.items()
        if isinstance(dtype, pl.Decimal)
    ]
    return frame.with_columns(casts) if casts else frame


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    cur = con.cursor()
    try:
        return cur.execute(sql, params).fetchall()
    finally:
        cur.close()


def _tables(con: duckdb.DuckDBPyConnection) -> frozenset[str]:
    return frozenset(
        str(r[0])
        for r in _rows(
            con,
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
            "AND schema_name = 'main'",
        )
    )


# ---------------------------------------------------------------------------
# The store as a whole (every page's header)


@dataclass(frozen=True, slots=True)
class StoreOverview:
    """What the store holds, for the banner, the filters and the empty-store page.

    ``state`` is ``ready`` (evidence built), ``no_spans`` (nothing ingested
    yet) or ``no_evidence`` (spans, but the evidence tables were never
    built). ``stale_spans`` counts recurscope spans newer than the last
    refresh (pages show the last refresh; ``report`` computes them).
    """

    state: str
    spans: int
    evidence_spans: int
    sessions: int
    non_observed_spans: int
    simulated_spans: int
    replayed_spans: int
    first_day: date | None
    last_day: date | None
    services: tuple[str, ...]
    roles: tuple[str, ...]
    prompt_versions: tuple[str, ...]
    last_refresh_at: datetime | None
    refresh_seq: int
    stale_spans: int

    @property
    def origin_note(self) -> str:
        """'' for observed data, else a sentence for the banner."""
        if not self.non_observed_spans:
            return ""
        kinds = [
            f"{n:,} {name}"
            for name, n in (("simulated", self.simulated_spans), ("replayed", self.replayed_spans))
            if n
        ]
        share = self.non_observed_spans / self.evidence_spans if self.evidence_spans else 1.0
        return (
            f"{' and '.join(kinds) or f'{self.non_observed_spans:,} non-observed'} of "
            f"{self.evidence_spans:,} evidence spans ({share:.0%}) were not observed from a real "
            "runtime: everything computed from them is a demonstration, not evidence."
        )


def _distinct(con: duckdb.DuckDBPyConnection, table: str, column: str) -> tuple[str, ...]:
    return tuple(
        str(r[0])
        for r in _rows(
            con, f"SELECT DISTINCT {column} FROM {table} WHERE {column} IS NOT NULL ORDER BY 1"
        )
    )


def store_overview(con: duckdb.DuckDBPyConnection) -> StoreOverview:
    """The store's state, coverage, origin and the values the filters offer."""
    tables = _tables(con)
    spans = (
        int(_rows(con, "SELECT count(*) FROM otel_traces")[0][0]) if "otel_traces" in tables else 0
    )
    built = tables.issuperset({*SPAN_MODELS, *SESSION_MODELS, REFRESH_LOG})
    if not built:
        return StoreOverview(
            "no_spans" if spans == 0 else "no_evidence",
            spans, 0, 0, 0, 0, 0, None, None, (), (), (), None, 0, 0,
        )  # fmt: skip
    coverage = _frame(con, "SELECT * FROM coverage").row(0, named=True)
    days = _rows(
        con, "SELECT min(day), max(day) FROM session_activity WHERE session_id IS NOT NULL"
    )[0]
    refresh = _rows(
        con,
        f"SELECT refreshed_at, seq, spans_total FROM {REFRESH_LOG} "
        "ORDER BY refreshed_at DESC, seq DESC LIMIT 1",
    )
    refreshed_at, seq, spans_total = refresh[0] if refresh else (None, 0, 0)
    stale = 0
    if "otel_traces" in tables:
        current = _rows(
            con,
            "SELECT count(*) FROM otel_traces WHERE SpanName IN "
            "('recurscope.call', 'recurscope.trim', 'recurscope.goal.boundary_shift')",
        )[0][0]
        stale = max(int(current) - int(spans_total or 0), 0)
    return StoreOverview(
        state="ready",
        spans=spans,
        evidence_spans=int(coverage.get("spans") or 0),
        sessions=int(coverage.get("sessions") or 0),
        non_observed_spans=int(coverage.get("non_observed_spans") or 0),
        simulated_spans=int(coverage.get("simulated_spans") or 0),
        replayed_spans=int(coverage.get("replayed_spans") or 0),
        first_day=days[0],
        last_day=days[1],
        services=_distinct(con, "session_activity", "service_name"),
        roles=_distinct(con, "calls", "role"),
        prompt_versions=_distinct(con, "session_activity", "prompt_version"),
        last_refresh_at=refreshed_at,
        refresh_seq=int(seq or 0),
        stale_spans=stale,
    )


# ---------------------------------------------------------------------------
# Verdict and Compare: the report's own functions


def verdict_data(
    con: duckdb.DuckDBPyConnection,
    flt: Filters,
    preregistration: str | os.PathLike[str],
    detector_quality: str | os.PathLike[str] | None,
    database: str | None = None,
) -> Report:
    """The report ``recurscope report`` would print for the same store and filters."""
    return build_report(
        con,
        preregistration,
        since=flt.since,
        until=flt.until,
        service=flt.service,
        role=flt.role,
        prompt_version=flt.prompt_version,
        detector_quality_path=detector_quality,
        database=database,
        include_simulated=flt.include_simulated,
    )


def compare_groups(con: duckdb.DuckDBPyConnection, by: str, flt: Filters) -> list[tuple[str, int]]:
    """The values of dimension ``by`` with their session counts, most sessions first."""
    if by == "date":
        return []
    dimension = DIMENSIONS[by]
    if dimension.session_level:
        # Compaction: a session is on when any planning used or tried a summarizer.
        rows = _rows(
            con,
            f"""
            with per_session as (
                select session_id, bool_or(compaction_used or compaction_failed) as used
                from trims where {flt.where("trims")} group by session_id
            )
            select case when s.used then 'on' else 'off' end as value, count(*) as sessions
            from sessions as x left join per_session as s using (session_id)
            group by 1 order by 2 desc, 1
            """,
        )
        return [(str(v), int(n)) for v, n in rows]
    parts = " UNION ALL ".join(
        f"SELECT session_id, CAST({dimension.column} AS VARCHAR) AS value FROM {table} "
        f"WHERE {flt.where(table)}"
        for table in dimension.tables
    )
    rows = _rows(
        con,
        f"SELECT value, count(DISTINCT session_id) AS sessions FROM ({parts}) "
        "WHERE value IS NOT NULL AND session_id IS NOT NULL GROUP BY value ORDER BY 2 DESC, 1",
    )
    return [(str(v), int(n)) for v, n in rows]


def compare_data(
    con: duckdb.DuckDBPyConnection,
    by: str,
    flt: Filters,
    groups: tuple[str, str] | None = None,
    split_date: datetime | None = None,
    preregistration: str | os.PathLike[str] | None = None,
) -> Comparison:
    """The comparison ``recurscope compare`` would print for the same store and filters."""
    return compare(
        con,
        "date" if split_date is not None else by,
        groups=groups,
        split_date=split_date,
        preregistration_path=preregistration,
        since=flt.since,
        until=flt.until,
        service=flt.service,
        role=flt.role,
        prompt_version=flt.prompt_version,
        include_simulated=flt.include_simulated,
    )


# ---------------------------------------------------------------------------
# History access


@dataclass(frozen=True, slots=True)
class HistoryAccessData:
    """History use: over time, by role, which operations, how much, and who detected it."""

    totals: Mapping[str, Any]
    by_day: pl.DataFrame
    by_role: pl.DataFrame
    op_mix: pl.DataFrame
    records_read_stats: Mapping[str, Any]
    records_read: pl.DataFrame
    detection: pl.DataFrame
    agreement: pl.DataFrame


def history_access_data(con: duckdb.DuckDBPyConnection, flt: Filters) -> HistoryAccessData:
    """Access rate by day and role, op mix, records read, runtime vs static detection."""
    where = flt.where("calls")
    rate = """
        count(*) as calls,
        sum(case when history_size > 0 then 1 else 0 end) as calls_with_history,
        sum(case when reads_history then 1 else 0 end) as history_reading_calls,
        sum(case when reads_history and history_size > 0 then 1 else 0 end)
            as reading_calls_with_history,
        sum(case when contextview_shaped then 1 else 0 end) as contextview_shaped_calls
    """
    totals = _frame(con, f"SELECT {rate} FROM calls WHERE {where}").row(0, named=True)
    by_day = _frame(
        con,
        f"""
        select day, {rate},
            reading_calls_with_history / nullif(calls_with_history, 0) as history_reliance
        from calls where {where} group by day order by day
        """,
    )
    by_role = _frame(
        con,
        f"""
        select coalesce(role, '(none)') as role, {rate},
            reading_calls_with_history / nullif(calls_with_history, 0) as history_reliance,
            contextview_shaped_calls / nullif(history_reading_calls, 0) as contextview_shaped_share
        from calls where {where} group by 1 order by calls desc, role
        """,
    )
    op_mix = _frame(
        con,
        f"""
        with reading as (
            select count(*) as n from calls where {where} and reads_history
        )
        select op, any_value(op_class) as op_class, count(*) as calls,
            count(*) / nullif(any_value(reading.n), 0) as share
        from history_access, reading
        where {flt.where("history_access")}
        group by op order by calls desc, op
        """,
    )
    records_read = _frame(
        con,
        f"""
        select
            count(records_read) as calls,
            quantile_disc(records_read, 0.5) as median,
            quantile_disc(records_read, 0.9) as p90,
            quantile_disc(records_read, 0.99) as p99,
            max(records_read) as max,
            avg(history_size) as mean_history_size
        from calls where {where} and reads_history and records_read is not null
        """,
    )
    records_hist = _frame(
        con,
        f"""
        select case
                when records_read <= 0 then '0'
                when records_read <= 1 then '1'
                when records_read <= 3 then '2-3'
                when records_read <= 5 then '4-5'
                when records_read <= 10 then '6-10'
                when records_read <= 25 then '11-25'
                when records_read <= 50 then '26-50'
                else '51+'
            end as bucket,
            min(records_read) as bucket_min,
            count(*) as calls
        from calls where {where} and reads_history and records_read is not null
        group by 1 order by 2
        """,
    )
    detection = _frame(
        con,
        f"""
        select coalesce(detection, '(none)') as detection, count(*) as calls
        from calls where {where} and reads_history group by 1 order by 2 desc
        """,
    )
    agreement = _frame(
        con,
        f"""
        select
            case when coalesce(accessed, false) then 'ours: read' else 'ours: no read' end
                as recurscope,
            case when reported_accessed then 'runtime: read' else 'runtime: no read' end
                as runtime,
            count(*) as calls
        from calls where {where} and reported_accessed is not null
        group by 1, 2 order by 1, 2
        """,
    )
    return HistoryAccessData(
        totals=totals,
        by_day=by_day,
        by_role=by_role,
        op_mix=op_mix,
        records_read_stats=records_read.row(0, named=True),
        records_read=records_hist,
        detection=detection,
        agreement=agreement,
    )


# ---------------------------------------------------------------------------
# Boilerplate


@dataclass(frozen=True, slots=True)
class BoilerplateData:
    """Near-duplicate clusters of history code that recur across sessions.

    ``clusters`` holds the :data:`_CLUSTER_LIMIT` most widespread clusters
    (boilerplate first), as the evidence's ``shape_clusters`` gives them:
    member shapes, calls, sessions, least similarity of a member to the
    cluster's leader, first/last seen, the ContextView-shaped operations its
    calls re-implement and an example program when content capture was on.
    ``members`` lists the exact shapes (fingerprints) of those clusters with
    their own calls, sessions and similarity to the leader. The counts are
    over all clusters. ``exact_*`` are the same counts with exact
    fingerprints as the unit (pre-registration v1-2; shown beside, never
    instead). Everything comes from an
    :class:`~recurscope.pipeline.evidence.views.EvidenceView` with the
    pre-registered S and clustering settings, so the shares are the report's.
    """

    min_other_sessions: int
    similarity: float
    """The similarity threshold clusters use (the default when none is registered)."""
    registered: bool
    """True when the pre-registration registers the clustering settings (version 3 on)."""
    band_rows: int
    band_count: int
    preregistration_version: int
    sketch_scheme: str
    """The sketch scheme the pre-registration names ('' before version 6)."""
    known_error: KnownError | None
    """That scheme's blind runs, pooled, as the report shows them (``None``: never run blind)."""
    clusters: pl.DataFrame
    members: pl.DataFrame
    shapes: int
    cluster_count: int
    boilerplate_clusters: int
    reading_calls: int
    boilerplate_calls: int
    exact_boilerplate_shapes: int
    exact_boilerplate_calls: int
    sketchless_shapes: int
    """Shapes whose calls carry no usable sketch: each is a cluster of its own."""


_CLUSTER_LIMIT: Final = 500


def boilerplate_data(
    con: duckdb.DuckDBPyConnection,
    flt: Filters,
    preregistration: str | os.PathLike[str],
) -> BoilerplateData:
    """Near-duplicate clusters of history code, most widespread first, with the exact-hash view."""
    prereg = load_preregistration(preregistration)
    settings = prereg.clusters or DEFAULT_CLUSTERS
    with _report_view(con, flt, prereg) as view:
        counts = view.query(
            """
            select
                (select count(distinct fingerprint) from session_fingerprints),
                (select count(distinct fingerprint) from session_fingerprints
                    where not coalesce(valid_sketch(sketch), false)),
                (select count(*) from shape_clusters),
                (select count(*) from shape_clusters where is_boilerplate),
                (select count(*) from code_clusters where is_boilerplate),
                (select coalesce(sum(history_reading_calls), 0) from sessions),
                (select coalesce(sum(clustered_boilerplate_calls), 0) from sessions),
                (select coalesce(sum(boilerplate_calls), 0) from sessions)
            """
        )[0]
        clusters = _plain(
            view.relation(
                f"""
                with top as (
                    select * from shape_clusters
                    order by is_boilerplate desc, sessions desc, calls desc, cluster_id
                    limit {_CLUSTER_LIMIT}
                ),
                member_of as (
                    select distinct f.fingerprint,
                        coalesce(r.cluster_id, f.fingerprint) as cluster_id
                    from session_fingerprints as f
                    left join shape_cluster_members as r on r.fingerprint = f.fingerprint
                ),
                ops as (
                    select m.cluster_id, list(distinct h.op order by h.op) as contextview_ops
                    from history_access as h
                    join member_of as m on m.fingerprint = h.fingerprint
                    where h.op_class = 'contextview'
                        and m.cluster_id in (select cluster_id from top)
                    group by m.cluster_id
                )
                select t.cluster_id, t.shapes, t.calls, t.sessions, t.other_sessions,
                    t.is_boilerplate, t.min_similarity, t.mean_similarity,
                    t.contextview_shaped_calls,
                    coalesce(o.contextview_ops, []) as contextview_ops,
                    t.first_seen, t.last_seen, t.example_fingerprint, t.example_language,
                    t.example_code, t.example_ops, t.example_session_id,
                    t.example_trace_id, t.example_span_id
                from top as t
                left join ops as o using (cluster_id)
                order by t.is_boilerplate desc, t.sessions desc, t.calls desc, t.cluster_id
                """
            ).pl()
        )
        members = _plain(
            view.relation(
                f"""
                with top as (
                    select cluster_id from shape_clusters
                    order by is_boilerplate desc, sessions desc, calls desc, cluster_id
                    limit {_CLUSTER_LIMIT}
                ),
                shapes as (
                    select fingerprint,
                        sum(calls) as calls,
                        count(distinct session_id) as sessions,
                        min(first_seen) as first_seen,
                        max(last_seen) as last_seen,
                        bool_or(example_code is not null) as has_example
                    from session_fingerprints
                    group by fingerprint
                )
                select coalesce(r.cluster_id, s.fingerprint) as cluster_id,
                    s.fingerprint,
                    coalesce(r.is_leader, true) as is_leader,
                    r.similarity,
                    s.calls, s.sessions, s.first_seen, s.last_seen, s.has_example
                from shapes as s
                left join shape_cluster_members as r on r.fingerprint = s.fingerprint
                where coalesce(r.cluster_id, s.fingerprint) in (select cluster_id from top)
                order by cluster_id, is_leader desc, s.sessions desc, s.calls desc, s.fingerprint
                """
            ).pl()
        )
    return BoilerplateData(
        min_other_sessions=prereg.min_other_sessions,
        similarity=settings.threshold,
        registered=prereg.clusters is not None,
        band_rows=settings.band_rows,
        band_count=settings.band_count,
        preregistration_version=prereg.version,
        sketch_scheme=prereg.sketch_scheme,
        known_error=known_error(prereg.sketch_scheme, load_blind_runs()),
        clusters=clusters,
        members=members,
        shapes=int(counts[0]),
        sketchless_shapes=int(counts[1]),
        cluster_count=int(counts[2]),
        boilerplate_clusters=int(counts[3]),
        exact_boilerplate_shapes=int(counts[4]),
        reading_calls=int(counts[5]),
        boilerplate_calls=int(counts[6]),
        exact_boilerplate_calls=int(counts[7]),
    )


@dataclass(frozen=True, slots=True)
class BoilerplateSweep:
    """The boilerplate share re-computed at each similarity (exact fingerprints first)."""

    points: pl.DataFrame
    """similarity (null = exact), share, boilerplate_calls, reading_calls, clusters, boilerplate_clusters."""
    similarity: float
    """The threshold the verdict uses."""


def boilerplate_sweep_data(
    con: duckdb.DuckDBPyConnection,
    flt: Filters,
    preregistration: str | os.PathLike[str],
) -> BoilerplateSweep:
    """The report's sweep: the selection's shapes re-clustered at 0.5-0.9 and the registered similarity."""
    prereg = load_preregistration(preregistration)
    settings = prereg.clusters or DEFAULT_CLUSTERS
    with _report_view(con, flt, prereg) as view:
        # Unfiltered, the writers kept it with the headline intervals.
        kept = load_headline_sweep(view, prereg) if view.stored_session_models else None
        points = kept if kept is not None else headline_sweep(view, prereg)
    frame = pl.DataFrame(
        [
            {
                "similarity": p.similarity,
                "share": p.share,
                "boilerplate_calls": p.boilerplate_calls,
                "reading_calls": p.reading_calls,
                "clusters": p.clusters,
                "boilerplate_clusters": p.boilerplate_clusters,
            }
            for p in points
        ],
        schema={
            "similarity": pl.Float64,
            "share": pl.Float64,
            "boilerplate_calls": pl.Int64,
            "reading_calls": pl.Int64,
            "clusters": pl.Int64,
            "boilerplate_clusters": pl.Int64,
        },
    )
    return BoilerplateSweep(points=frame, similarity=settings.threshold)


# ---------------------------------------------------------------------------
# History needs


@dataclass(frozen=True, slots=True)
class HistoryNeedsData:
    """Fields read and read depth (the report's section), plus the rows to draw them.

    ``info`` is what ``recurscope report`` shows for the same scope;
    ``depths`` one row per history-reading call with a known depth (capped
    at :data:`_DEPTH_ROWS`, newest first) with role and the three units;
    ``markdown`` the report's section, to paste into the design record.
    """

    info: HistoryNeedsInfo
    depths: pl.DataFrame
    depth_rows_total: int
    markdown: str


_DEPTH_ROWS: Final = 50_000


def history_needs_data(
    con: duckdb.DuckDBPyConnection,
    flt: Filters,
    preregistration: str | os.PathLike[str],
) -> HistoryNeedsData:
    """Which record fields code reads and how far back, for the filters' scope."""
    prereg = load_preregistration(preregistration)
    with _report_view(con, flt, prereg) as view:
        info = history_needs(view)
        total = int(
            view.query(
                "SELECT count(*) FROM read_depths WHERE depth_records IS NOT NULL "
                "OR depth_seconds IS NOT NULL OR depth_tokens IS NOT NULL"
            )[0][0]
        )
        depths = _plain(
            view.relation(
                f"""
                SELECT coalesce(role, '(none)') AS role, depth_source,
                    depth_records, depth_seconds, depth_tokens, history_size,
                    reached_oldest, hit_eviction, started_at
                FROM read_depths
                WHERE depth_records IS NOT NULL OR depth_seconds IS NOT NULL
                    OR depth_tokens IS NOT NULL
                ORDER BY started_at DESC, span_id
                LIMIT {_DEPTH_ROWS}
                """
            ).pl()
        )
    return HistoryNeedsData(
        info=info,
        depths=depths,
        depth_rows_total=total,
        markdown="\n".join(history_needs_markdown(info)).strip() + "\n",
    )


# ---------------------------------------------------------------------------
# Delegation


@dataclass(frozen=True, slots=True)
class DelegationData:
    """Delegations: same-role share, its trend, depths, kinds, and traces to draw."""

    totals: Mapping[str, Any]
    by_day: pl.DataFrame
    by_role: pl.DataFrame
    depth: pl.DataFrame
    kinds: pl.DataFrame
    traces: pl.DataFrame


def delegation_data(con: duckdb.DuckDBPyConnection, flt: Filters) -> DelegationData:
    """Same-role decomposition rate, depth distribution and the traces with most delegations."""
    where = flt.where("delegations")
    counts = """
        count(*) as delegations,
        count(same_role) as classified,
        sum(case when same_role then 1 else 0 end) as same_role,
        sum(case when parent_status = 'missing' then 1 else 0 end) as orphans
    """
    totals = _frame(
        con,
        f"SELECT {counts}, max(coalesce(depth, ancestors)) AS max_depth "
        f"FROM delegations WHERE {where}",
    ).row(0, named=True)
    by_day = _frame(
        con,
        f"""select *, same_role / nullif(classified, 0) as same_role_share
        from (select day, {counts} from delegations where {where} group by day)
        order by day""",
    )
    by_role = _frame(
        con,
        f"""select coalesce(role, '(none)') as target_role, {counts}
        from delegations where {where} group by 1 order by delegations desc, 1""",
    )
    depth = _frame(
        con,
        f"""select coalesce(depth, ancestors) as depth, count(*) as delegations,
            sum(case when same_role then 1 else 0 end) as same_role
        from delegations where {where} group by 1 order by 1""",
    )
    kinds = _frame(
        con,
        f"""select coalesce(kind, '(unknown)') as kind, {counts}
        from delegations where {where} group by 1 order by delegations desc, 1""",
    )
    traces = _frame(
        con,
        f"""select trace_id, any_value(session_id) as session_id, count(*) as delegations,
            sum(case when same_role then 1 else 0 end) as same_role,
            max(coalesce(depth, ancestors)) as max_depth, min(started_at) as started_at
        from delegations where {where}
        group by trace_id order by delegations desc, max_depth desc, trace_id
        limit {_TOP_TRACES}""",
    )
    return DelegationData(totals, by_day, by_role, depth, kinds, traces)


def delegation_tree(con: duckdb.DuckDBPyConnection, trace_id: str) -> pl.DataFrame:
    """Every call of one trace with its caller, for drawing the delegation tree."""
    return _frame(
        con,
        """
        select c.span_id, c.parent_span_id, c.call_id, c.parent_call_id,
            coalesce(c.role, '(none)') as role, c.method, c.depth,
            d.caller_span_id, d.same_role, d.kind, d.parent_status,
            c.reads_history, c.outcome_status, c.started_at
        from calls as c
        left join delegations as d on d.trace_id = c.trace_id and d.span_id = c.span_id
        where c.trace_id = ?
        order by c.started_at, c.span_id
        """,
        [trace_id],
    )


# ---------------------------------------------------------------------------
# Trims


@dataclass(frozen=True, slots=True)
class TrimsData:
    """Trim pressure and what trimming removed, by strategy."""

    totals: Mapping[str, Any]
    by_turn: pl.DataFrame
    phases: pl.DataFrame
    by_strategy: pl.DataFrame
    by_day: pl.DataFrame


def trims_data(con: duckdb.DuckDBPyConnection, flt: Filters) -> TrimsData:
    """Pressure over turns, phase mix, removed vs summarized size, stale asks, compaction."""
    where = flt.where("trims")
    per_strategy = """
        count(*) as plannings,
        sum(case when trimmed then 1 else 0 end) as trimmed,
        sum(case when phase = 'goal_overflow' then 1 else 0 end) as goal_overflow,
        sum(case when phase in ('pre_boundary', 'goal_overflow') and trimmed then 1 else 0 end)
            as boundary_trims,
        sum(case when stale_ask_dropped then 1 else 0 end) as stale_asks_dropped,
        sum(case when compaction_used then 1 else 0 end) as compaction_used,
        sum(case when compaction_failed then 1 else 0 end) as compaction_failed,
        sum(coalesce(dropped_pre_boundary_size, 0) + coalesce(dropped_post_boundary_size, 0))
            as dropped_size,
        sum(coalesce(summarized_pre_boundary_size, 0)
            + coalesce(summarized_post_boundary_size, 0)) as summarized_size,
        sum(coalesce(summary_size, 0)) as summary_size
    """
    totals = _frame(con, f"SELECT {per_strategy} FROM trims WHERE {where}").row(0, named=True)
    by_turn = _frame(
        con,
        f"""
        select least(planning_index, {_MAX_TURN}) as turn,
            coalesce(strategy, '(none)') as strategy,
            count(*) as plannings,
            sum(case when trimmed then 1 else 0 end) as trimmed,
            sum(case when trimmed then 1 else 0 end) / count(*) as trim_pressure
        from trims where {where}
        group by 1, 2 order by 2, 1
        """,
    )
    phases = _frame(
        con,
        f"""
        select coalesce(strategy, '(none)') as strategy, coalesce(phase, '(none)') as phase,
            count(*) as plannings
        from trims where {where} group by 1, 2 order by 1, 2
        """,
    )
    by_strategy = _frame(
        con,
        f"""
        select coalesce(strategy, '(none)') as strategy, coalesce(unit, '(none)') as unit,
            {per_strategy},
            sum(case when trimmed then 1 else 0 end) / count(*) as trim_pressure
        from trims where {where} group by 1, 2 order by plannings desc, 1, 2
        """,
    )
    by_day = _frame(
        con,
        f"""
        select day, coalesce(strategy, '(none)') as strategy, count(*) as plannings,
            sum(case when trimmed then 1 else 0 end) / count(*) as trim_pressure
        from trims where {where} group by 1, 2 order by 1, 2
        """,
    )
    return TrimsData(totals, by_turn, phases, by_strategy, by_day)


# ---------------------------------------------------------------------------
# Replay


@dataclass(frozen=True, slots=True)
class ReplayData:
    """What each trim strategy did to replayed conversations (``recurscope replay``).

    ``strategies``: one row per strategy and compaction setting, the
    command's table; ``conversations``: one row per conversation, strategy
    and compaction (the conversations with the most returned-to context
    first, at most 500 conversations).
    """

    strategies: pl.DataFrame
    conversations: pl.DataFrame


_REPLAY_SUMS: Final = """
    count(*) as plannings,
    sum(case when trimmed then 1 else 0 end) as trimmed,
    sum(coalesce(dropped_pre_boundary_size, 0) + coalesce(dropped_post_boundary_size, 0))
        as dropped_size,
    sum(coalesce(summarized_pre_boundary_size, 0) + coalesce(summarized_post_boundary_size, 0))
        as summarized_size,
    sum(case when stale_ask_dropped then 1 else 0 end) as stale_asks_dropped,
    sum(case when replay_goal_first_turn_removed then 1 else 0 end) as goal_first_turns_removed,
    sum(case when replay_goal_switch = 'return' then 1 else 0 end) as returns,
    sum(coalesce(replay_return_size, 0)) as returned_goal_size,
    sum(coalesce(replay_return_removed_size, 0)) as returned_goal_removed
"""


_COMPACTION: Final = "case when replay_compaction then 'on' else 'off' end"


def _replay_where(flt: Filters) -> str:
    return f"{flt.where('trims')} and origin = 'replayed' and replay_conversation_id is not null"


def replay_data(con: duckdb.DuckDBPyConnection, flt: Filters) -> ReplayData:
    """Replayed plannings by strategy and compaction, and by conversation."""
    where = _replay_where(flt)
    compaction = _COMPACTION
    strategies = _frame(
        con,
        f"""
        select coalesce(strategy, '(none)') as strategy, {compaction} as compaction,
            count(distinct session_id) as sessions, {_REPLAY_SUMS}
        from trims where {where} group by 1, 2 order by 1, 2
        """,
    )
    conversations = _frame(
        con,
        f"""
        with picked as (
            select replay_conversation_id, sum(coalesce(replay_return_size, 0)) as weight
            from trims where {where} group by 1
            order by weight desc, 1 limit {_SESSION_LIST_LIMIT}
        )
        select replay_conversation_id as conversation, coalesce(strategy, '(none)') as strategy,
            {compaction} as compaction, {_REPLAY_SUMS}
        from trims join picked using (replay_conversation_id)
        where {where} group by 1, 2, 3, picked.weight
        order by picked.weight desc, 1, 2, 3
        """,
    )
    return ReplayData(strategies, conversations)


def replay_turns(con: duckdb.DuckDBPyConnection, flt: Filters, conversation: str) -> pl.DataFrame:
    """One replayed conversation, planning by planning, every strategy side by side."""
    compaction = _COMPACTION
    return _frame(
        con,
        f"""
        select replay_turn_index as turn, replay_goal_switch as switch,
            coalesce(strategy, '(none)') as strategy, {compaction} as compaction,
            phase, trimmed,
            coalesce(dropped_pre_boundary_size, 0) + coalesce(dropped_post_boundary_size, 0)
                as dropped_size,
            coalesce(summarized_pre_boundary_size, 0)
                + coalesce(summarized_post_boundary_size, 0) as summarized_size,
            stale_ask_dropped, replay_goal_first_turn_removed as goal_first_turn_removed,
            replay_return_size as returned_goal_size,
            replay_return_removed_size as returned_goal_removed
        from trims
        where {_replay_where(flt)} and replay_conversation_id = ?
        order by turn, strategy, compaction
        """,
        [conversation],
    )


# ---------------------------------------------------------------------------
# Goal boundaries


@dataclass(frozen=True, slots=True)
class GoalsData:
    """Boundary shifts: when, why, and which sessions shift most."""

    totals: Mapping[str, Any]
    by_day: pl.DataFrame
    reasons: pl.DataFrame
    sessions: pl.DataFrame


def goals_data(con: duckdb.DuckDBPyConnection, flt: Filters) -> GoalsData:
    """Switches by reason over time, goal-changed markers, the sessions that shift most."""
    where = flt.where("boundary_shifts")
    totals = _frame(
        con,
        f"""
        select count(*) as shifts,
            count(distinct session_id) as sessions,
            sum(case when reason <> 'first_need' then 1 else 0 end) as later_needs,
            sum(case when same_task_reemit then 1 else 0 end) as same_task_reemits,
            sum(case when changed_marker then 1 else 0 end) as changed_markers,
            sum(case when supersedes_earlier then 1 else 0 end) as superseding,
            (select count(distinct session_id) from (
                select session_id from calls where {flt.where("calls")}
                union all select session_id from trims where {flt.where("trims")}
                union all select session_id from boundary_shifts where {where}
            )) as sessions_in_view
        from boundary_shifts where {where}
        """,
    ).row(0, named=True)
    by_day = _frame(
        con,
        f"""
        select day, coalesce(reason, '(none)') as reason, count(*) as shifts,
            sum(case when changed_marker then 1 else 0 end) as changed_markers
        from boundary_shifts where {where} group by 1, 2 order by 1, 2
        """,
    )
    reasons = _frame(
        con,
        f"""
        select coalesce(reason, '(none)') as reason, count(*) as shifts,
            sum(case when changed_marker then 1 else 0 end) as changed_markers,
            avg(similarity) as mean_similarity
        from boundary_shifts where {where} group by 1 order by 2 desc, 1
        """,
    )
    sessions = _frame(
        con,
        f"""
        select session_id, count(*) as shifts,
            sum(case when same_task_reemit then 1 else 0 end) as same_task_reemits,
            sum(case when reason = 'resumed_goal' then 1 else 0 end) as resumed,
            sum(case when changed_marker then 1 else 0 end) as changed_markers,
            min(started_at) as first_shift, max(started_at) as last_shift
        from boundary_shifts where {where} and session_id is not null
        group by 1 order by shifts desc, session_id limit {_SESSION_LIST_LIMIT}
        """,
    )
    return GoalsData(totals, by_day, reasons, sessions)


# ---------------------------------------------------------------------------
# Sessions


def session_list(con: duckdb.DuckDBPyConnection, flt: Filters, search: str = "") -> pl.DataFrame:
    """Sessions matching the filters (most recent first, at most 500), optionally by id text."""
    conditions = [f"session_id IN (SELECT session_id FROM calls WHERE {flt.where('calls')})"]
    if not flt.active:
        conditions = ["TRUE"]
    params: list[Any] = []
    if search:
        conditions.append("contains(lower(session_id), lower(?))")
        params.append(search)
    return _frame(
        con,
        f"""
        select session_id, first_span_at, last_span_at, service_name, prompt_version, model,
            calls, history_reading_calls, contextview_shaped_calls, boilerplate_calls,
            delegations, same_role_delegations, plannings, trimmed_plannings,
            goal_overflow_trims, boundary_shifts, error_calls
        from sessions where {" AND ".join(conditions)}
        order by last_span_at desc, session_id limit {_SESSION_LIST_LIMIT}
        """,
        params,
    )


@dataclass(frozen=True, slots=True)
class SessionDetail:
    """One session: its counts, and every call, planning and boundary shift in time order."""

    summary: Mapping[str, Any] | None
    activity: pl.DataFrame
    calls: pl.DataFrame
    trims: pl.DataFrame
    shifts: pl.DataFrame
    timeline: pl.DataFrame


def session_detail(con: duckdb.DuckDBPyConnection, session_id: str) -> SessionDetail:
    """Everything recorded for ``session_id`` (an unknown id gives an empty detail)."""
    summary_frame = _frame(con, "SELECT * FROM sessions WHERE session_id = ?", [session_id])
    summary = summary_frame.row(0, named=True) if summary_frame.height else None
    activity = _frame(
        con,
        "SELECT day, run_id, seed, service_name, prompt_version, model, origin, spans, "
        "first_span_at, last_span_at FROM session_activity WHERE session_id = ? ORDER BY first_span_at",
        [session_id],
    )
    calls = _frame(
        con,
        """
        select started_at, role, method, depth, history_size, reads_history,
            contextview_shaped, ops, records_read, detection, reported_accessed, fingerprint,
            delegation_kind, outcome_status, code_language, code_content,
            call_id, parent_call_id, trace_id, span_id
        from calls where session_id = ? order by started_at, span_id
        """,
        [session_id],
    )
    trims = _frame(
        con,
        """
        select started_at, planning_index, strategy, unit, budget, phase, trimmed,
            boundary_index, before_size, after_size, before_messages, after_messages,
            dropped_pre_boundary_count, dropped_post_boundary_count,
            summarized_pre_boundary_count + summarized_post_boundary_count as summarized,
            stale_ask_dropped, compaction_used, compaction_failed, role, span_id
        from trims where session_id = ? order by started_at, span_id
        """,
        [session_id],
    )
    shifts = _frame(
        con,
        """
        select started_at, reason, position, boundary_from, boundary_to, supersedes_earlier,
            similarity, changed_marker, role, span_id
        from boundary_shifts where session_id = ? order by started_at, span_id
        """,
        [session_id],
    )
    timeline = _frame(
        con,
        """
        select started_at, 'call' as kind, coalesce(role, '') || ' ' || coalesce(method, '')
                as label,
            case when contextview_shaped then 'ContextView-shaped read'
                when reads_history then 'reads history' else 'no history read' end as detail,
            duration_ns / 1e6 as duration_ms
        from calls where session_id = ?
        union all
        select started_at, 'trim', coalesce(strategy, '') || ' ' || coalesce(phase, ''),
            case when trimmed then 'trimmed' else 'fits' end, duration_ns / 1e6
        from trims where session_id = ?
        union all
        select started_at, 'boundary shift', coalesce(reason, ''),
            case when changed_marker then 'goal changed marker' else 'no marker' end,
            duration_ns / 1e6
        from boundary_shifts where session_id = ?
        order by started_at, kind
        """,
        [session_id, session_id, session_id],
    )
    return SessionDetail(summary, activity, calls, trims, shifts, timeline)


# ---------------------------------------------------------------------------
# Data


@dataclass(frozen=True, slots=True)
class DataPageData:
    """Sources, the ingest log, the quarantine, refreshes, and the store's size and schema."""

    sources: pl.DataFrame
    ingest_log: pl.DataFrame
    quarantine_by_reason: pl.DataFrame
    quarantine_sample: pl.DataFrame
    refreshes: pl.DataFrame
    schema_version: str | None
    store_bytes: int
    wal_bytes: int
    snapshot_bytes: int
    tables: pl.DataFrame


def data_page_data(con: duckdb.DuckDBPyConnection, db_path: str | os.PathLike[str]) -> DataPageData:
    """What has been ingested, what was refused and why, and the store itself."""
    tables = _tables(con)
    empty = pl.DataFrame()
    sources = ingest_log = by_reason = sample = refreshes = empty
    if "ingest_log" in tables:
        sources = _frame(
            con,
            """
            select Source as source, any_value(Format) as format, count(*) as runs,
                sum(SpansAccepted) as spans_accepted, sum(RowsQuarantined) as quarantined,
                sum(DuplicatesSkipped) as duplicates, max(SourceSize) as size_bytes,
                arg_max(Status, IngestId) as last_status, max(StartedAt) as last_read_at
            from ingest_log group by Source order by last_read_at desc, source
            """,
        )
        ingest_log = _frame(
            con,
            """
            select IngestId as ingest_id, Source as source, Format as format, Status as status,
                RecordsRead as records, SpansAccepted as spans_accepted,
                RowsQuarantined as quarantined, DuplicatesSkipped as duplicates,
                Bytes as bytes, StartedAt as started_at, FinishedAt as finished_at,
                Detail as detail
            from ingest_log order by IngestId desc limit 1000
            """,
        )
    if "quarantine" in tables:
        by_reason = _frame(
            con,
            """
            select Source as source, Reason as reason, count(*) as records,
                min(QuarantinedAt) as first_at, max(QuarantinedAt) as last_at
            from quarantine group by 1, 2 order by records desc, 1, 2
            """,
        )
        sample = _frame(
            con,
            f"""
            select Source as source, Line as line, Reason as reason, Detail as detail,
                Excerpt as excerpt, QuarantinedAt as quarantined_at
            from quarantine order by QuarantinedAt desc, Source, Line
            limit {_QUARANTINE_SAMPLE}
            """,
        )
    if REFRESH_LOG in tables:
        refreshes = _frame(
            con,
            f"""select seq, refreshed_at, mode, reason, sessions_refreshed, late_spans,
                spans_total, seconds from {REFRESH_LOG} order by seq desc limit 50""",
        )
    schema = None
    if "recurscope_meta" in tables:
        row = _rows(con, "SELECT value FROM recurscope_meta WHERE key = 'schema_version'")
        schema = str(row[0][0]) if row else None
    table_rows = _frame(
        con,
        "SELECT table_name AS table, estimated_size AS rows FROM duckdb_tables() "
        "WHERE database_name = current_database() AND schema_name = 'main' ORDER BY table_name",
    )
    path = Path(db_path)
    return DataPageData(
        sources=sources,
        ingest_log=ingest_log,
        quarantine_by_reason=by_reason,
        quarantine_sample=sample,
        refreshes=refreshes,
        schema_version=schema,
        store_bytes=_size(path),
        wal_bytes=_size(path.with_name(path.name + ".wal")),
        snapshot_bytes=_size(path.with_name(path.stem + ".snapshot.duckdb")),
        tables=table_rows,
    )


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
