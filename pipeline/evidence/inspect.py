"""What the store holds, for ``recurscope sessions`` and ``recurscope quarantine``.

Read-only listings a user would otherwise get by opening DuckDB by hand:

- :func:`list_sessions` — one :class:`SessionSummary` per session
  (``gen_ai.conversation.id``), newest activity first;
- :func:`list_quarantine` and :func:`quarantine_summary` — the records that
  could not be stored, one by one or counted by source and reason;
- :func:`describe_empty` — why a filter selected nothing, in one sentence.

Every function takes a DuckDB connection to a store (``Store.connection``, or
``ReadView.connection`` from :func:`~recurscope.pipeline.store.locking.read_connection`),
works on read-only connections and never writes: anything it builds is a
TEMP object of a private cursor, gone when the call returns.

**Sessions are read from the raw spans, not from the evidence tables.** The
evidence tables exist only after a refresh and lag behind a store that a
writer is filling, but a user asking "is my session there?" must see it at
once. So the session list, its times, services, origins and span counts come
from ``otel_traces`` (one scan, attributes read through the evidence
dialect's macros so the session and origin mean exactly what they mean in
the evidence). The counts only the evidence models can give — delegations,
history-reading calls, plannings that trimmed — are taken from the stored
``calls``, ``trims`` and ``delegations`` tables for each listed session whose
spans the evidence covers exactly (the ``session_activity`` ledger: span
count and checksum, as a refresh checks them, built by today's SQL), and are
computed here with the same model SQL from the raw spans of the other
listed sessions only. Either way the numbers are what a refresh would store;
:attr:`SessionSummary.evidence_current` says which way they came.

**Text is safe to print.** Everything stored came from outside — a session
id, a service name, a source path or an excerpt may hold ANSI escapes,
newlines, NULs or 100 KB. Every text field of the records (and every
sentence of :func:`describe_empty`) goes through :func:`terminal_safe`:
control characters, Unicode format characters (bidi overrides, zero-width
characters), line separators and anything else not printable are shown as
``\\xNN`` / ``\\uNNNN`` / ``\\n``, and long values are cut with ``…``. The
records are for showing, not for round-tripping: a cut or escaped value
cannot be fed back as a filter (filters take the raw value).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import duckdb

from ...instrumentation import semconv as sc
from ..errors import PipelineError
from ..records import Reason
from .models import (
    RECURSCOPE_SPAN_NAMES,
    REFRESH_LOG,
    install_dialect,
    models_version,
    sql_text,
)

__all__ = [
    "DEFAULT_EXCERPT_CHARS",
    "MAX_DETAIL_CHARS",
    "MAX_NAME_CHARS",
    "QuarantineCount",
    "QuarantineFilter",
    "QuarantineRecord",
    "SessionFilter",
    "SessionSummary",
    "describe_empty",
    "list_quarantine",
    "list_sessions",
    "quarantine_summary",
    "terminal_safe",
]

MAX_NAME_CHARS: Final = 200
"""Longest session id, service, source, reason or id shown; longer ones end in ``…``."""

MAX_DETAIL_CHARS: Final = 300
"""Longest quarantine detail shown."""

DEFAULT_EXCERPT_CHARS: Final = 200
"""Excerpt length :func:`list_quarantine` shows unless asked for more (stored: up to 4 KiB)."""

_MAX_LISTED: Final = 10
# Services per session, and known values named in describe_empty's sentences.

_ELLIPSIS: Final = "…"
_NAMED_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

_SPAN_NAME_LIST: Final = ", ".join(f"'{name}'" for name in RECURSCOPE_SPAN_NAMES)
_SESSION_EXPR: Final = f"attr_str(SpanAttributes, '{sc.GEN_AI_CONVERSATION_ID}')"
_EVIDENCE_TABLES: Final = ("calls", "trims", "delegations", "session_activity", REFRESH_LOG)
# What the stored counts are read from; without all of them every count is computed.


# --------------------------------------------------------------------------
# Text safe for a terminal.


def _escape(char: str) -> str:
    # Python's "printable" leaves out exactly what must not reach a terminal raw:
    # C0/C1 controls and DEL (ESC starts ANSI sequences, C1's CSI does alone),
    # format characters (bidi overrides, zero-width ones), separators other
    # than the space, surrogates, and private-use and unassigned code points.
    if char.isprintable() or char == " ":
        return char
    named = _NAMED_ESCAPES.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def terminal_safe(text: str, limit: int = MAX_NAME_CHARS) -> str:
    """``text`` with nothing a terminal would act on, at most ``limit`` characters long.

    Every character Python does not call printable — control characters
    (ESC of ANSI sequences, NUL, C1 controls), format characters (bidi
    overrides, zero-width ones), separators other than the space, private-use
    and unassigned code points — becomes a visible escape (``\\x1b``,
    ``\\n``, ``\\u202e``); a result that would be longer than ``limit`` is
    cut, never inside an escape, and ends in ``…``. Reads at most
    ``limit + 1`` characters of ``text``, so a 100 MB value costs nothing.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    pieces: list[str] = []
    used = 0
    for char in itertools.islice(text, limit + 1):
        piece = _escape(char)
        pieces.append(piece)
        used += len(piece)
        if used > limit:
            break
    else:
        # Every character fits: each piece is at least one character, so a
        # text longer than limit + 1 characters always breaks out above.
        return "".join(pieces)
    while pieces and used > limit - len(_ELLIPSIS):
        used -= len(pieces.pop())
    return "".join(pieces) + _ELLIPSIS


def _quoted(text: str, limit: int = 80) -> str:
    return f"'{terminal_safe(text, limit)}'"


def _iso(moment: datetime | None) -> str | None:
    """ISO-8601 in UTC with a ``Z`` (stored times are naive UTC)."""
    if moment is None:
        return None
    return _utc(moment).isoformat().replace("+00:00", "Z")


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _naive_utc(moment: datetime | None) -> datetime | None:
    """A filter bound as the store keeps times: naive UTC (naive input is taken as UTC)."""
    if moment is None or moment.tzinfo is None:
        return moment
    return moment.astimezone(UTC).replace(tzinfo=None)


def _when(moment: datetime) -> str:
    """A time for a sentence: the date alone at midnight, else to the second, in UTC."""
    moment = _utc(moment)
    if moment.time() == datetime.min.time():
        return moment.strftime("%Y-%m-%d")
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def _names(values: Sequence[str], counts: Sequence[int] | None = None) -> str:
    """Up to a few values for a sentence, each made safe, with counts when given."""
    shown = [
        _quoted(value) + ("" if counts is None else f" ({counts[i]:,})")
        for i, value in enumerate(values[:_MAX_LISTED])
    ]
    if len(values) > _MAX_LISTED:
        shown.append(f"and {len(values) - _MAX_LISTED:,} more")
    return ", ".join(shown)


# --------------------------------------------------------------------------
# Records.


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """One session (``gen_ai.conversation.id``): when it ran, where, and what it recorded.

    Text fields are display-safe (:func:`terminal_safe`). ``spans`` counts
    every span carrying the session id (host and session spans too);
    ``calls``, ``plannings`` (``recurscope.trim`` spans: every planning, also
    those that fit) and ``boundary_shifts`` count recurscope spans. ``trims``
    (plannings that removed messages), ``delegations`` and
    ``history_reading_calls`` are the evidence models' counts, read from the
    stored evidence when ``evidence_current`` (it covers exactly this
    session's spans, built by today's SQL) and computed from the raw spans
    otherwise — the same numbers either way. ``origins`` are the
    ``recurscope.origin`` values of the session's recurscope spans (of all
    its spans when it has none; absent means ``observed``), sorted.
    ``first_span_at``/``last_span_at`` are the earliest and latest span
    starts, in UTC. Invariants: ``first_span_at <= last_span_at``,
    ``trims <= plannings``, ``history_reading_calls <= calls``,
    ``delegations <= calls``, ``calls + plannings + boundary_shifts <= spans``.
    """

    session_id: str
    service_names: tuple[str, ...]
    origins: tuple[str, ...]
    first_span_at: datetime
    last_span_at: datetime
    spans: int
    calls: int
    plannings: int
    trims: int
    boundary_shifts: int
    delegations: int
    history_reading_calls: int
    evidence_current: bool

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON values: lists for tuples, ISO-8601 UTC times."""
        return {
            "session_id": self.session_id,
            "service_names": list(self.service_names),
            "origins": list(self.origins),
            "first_span_at": _iso(self.first_span_at),
            "last_span_at": _iso(self.last_span_at),
            "spans": self.spans,
            "calls": self.calls,
            "plannings": self.plannings,
            "trims": self.trims,
            "boundary_shifts": self.boundary_shifts,
            "delegations": self.delegations,
            "history_reading_calls": self.history_reading_calls,
            "evidence_current": self.evidence_current,
        }


@dataclass(frozen=True, slots=True)
class QuarantineRecord:
    """One quarantined record, with its run's format; text fields are display-safe.

    ``line`` (1-based, JSON lines), ``byte_offset`` (of the record's unit in
    the decompressed stream) and ``span_index`` (0-based within the unit)
    locate it in ``source``; ``trace_id``/``span_id`` are ``''`` when the
    decoder did not get that far. ``excerpt`` is the start of the raw input
    (invalid bytes as ``\\xNN``), cut to the length asked for.
    ``format`` is ``None`` when the run's log row is gone.
    """

    ingest_id: int
    source: str
    format: str | None
    line: int | None
    byte_offset: int | None
    span_index: int | None
    reason: str
    detail: str
    trace_id: str
    span_id: str
    excerpt: str
    quarantined_at: datetime

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON values, ``quarantined_at`` in ISO-8601 UTC."""
        return {
            "ingest_id": self.ingest_id,
            "source": self.source,
            "format": self.format,
            "line": self.line,
            "byte_offset": self.byte_offset,
            "span_index": self.span_index,
            "reason": self.reason,
            "detail": self.detail,
            "trace_id": self.trace_id,
            "span_id": self.span_id,
            "excerpt": self.excerpt,
            "quarantined_at": _iso(self.quarantined_at),
        }


@dataclass(frozen=True, slots=True)
class QuarantineCount:
    """Quarantined records of one (source, reason): how many, in how many runs, when.

    Text fields are display-safe. ``records >= runs >= 1`` and
    ``first_at <= last_at`` (UTC).
    """

    source: str
    reason: str
    records: int
    runs: int
    first_at: datetime
    last_at: datetime

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON values, times in ISO-8601 UTC."""
        return {
            "source": self.source,
            "reason": self.reason,
            "records": self.records,
            "runs": self.runs,
            "first_at": _iso(self.first_at),
            "last_at": _iso(self.last_at),
        }


@dataclass(frozen=True, slots=True)
class SessionFilter:
    """Which sessions :func:`list_sessions` keeps; every field narrows, ``None`` keeps all.

    Each field is a test on the whole session, and a session is kept when it
    passes all of them: ``since``/``until`` — one of its spans starts in
    ``[since, until)`` (naive times are UTC); ``service`` — one of its spans
    has this ``service.name``; ``origins`` — one of its origins is listed
    (an empty tuple keeps nothing).
    """

    since: datetime | None = None
    until: datetime | None = None
    origins: tuple[str, ...] | None = None
    service: str | None = None

    @classmethod
    def of(
        cls,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        origins: Iterable[str] | None = None,
        service: str | None = None,
    ) -> SessionFilter:
        """A filter from loose arguments (``origins`` any iterable; a lone string is one origin)."""
        if isinstance(origins, str):
            origins = (origins,)
        return cls(since, until, None if origins is None else tuple(origins), service)

    def _params(self) -> dict[str, object]:
        return {
            "since": _naive_utc(self.since),
            "until": _naive_utc(self.until),
            "service": self.service,
            "origins": None if self.origins is None else list(self.origins),
        }


@dataclass(frozen=True, slots=True)
class QuarantineFilter:
    """Which quarantine rows to keep: ``source`` and ``reason`` match exactly, ``None`` keeps all.

    ``source`` is as ``ingest_log`` names it: an absolute path, ``<stdin>``
    or a receiver's name.
    """

    source: str | None = None
    reason: str | None = None


# --------------------------------------------------------------------------
# Shared SQL plumbing.


@dataclass(frozen=True, slots=True)
class _Tables:
    """The store's tables, named so that TEMP tables of the same name cannot shadow them."""

    catalog: str
    schema: str
    present: frozenset[str]

    @classmethod
    def of(cls, cur: duckdb.DuckDBPyConnection) -> _Tables:
        row = cur.execute("SELECT current_database(), current_schema()").fetchone()
        assert row is not None
        catalog, schema = str(row[0]), str(row[1])
        rows = cur.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = $c AND schema_name = $s "
            "UNION ALL SELECT view_name FROM duckdb_views() "
            "WHERE database_name = $c AND schema_name = $s",
            {"c": catalog, "s": schema},
        ).fetchall()
        return cls(catalog, schema, frozenset(str(name) for (name,) in rows))

    def q(self, table: str) -> str:
        def ident(name: str) -> str:
            return '"' + name.replace('"', '""') + '"'

        return f"{ident(self.catalog)}.{ident(self.schema)}.{ident(table)}"

    def require(self, table: str) -> str:
        if table not in self.present:
            raise PipelineError(
                f"The database has no {table} table: it is not a recurscope store. Point "
                "--db / RECURSCOPE_DB at the store that `recurscope ingest` or `serve` wrote."
            )
        return self.q(table)


def _check_limit(limit: int | None) -> None:
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be 0 or more (or None for all), got {limit}")


def _scalar(cur: duckdb.DuckDBPyConnection, sql: str, params: object = None) -> Any:
    row = cur.execute(sql, params).fetchone()
    return None if row is None else row[0]


# --------------------------------------------------------------------------
# Sessions.

# One row per session from the raw spans, with each filter's verdict. The
# ledger columns (recurscope_spans, span_checksum) are what session_activity
# keeps per session, so a session's stored evidence can be checked exactly.
_SESSIONS_SQL: Final = f"""
with spans as (
    select
        {_SESSION_EXPR} as session_id,
        "Timestamp" as started_at,
        nullif(ServiceName, '') as service_name,
        coalesce(attr_str(ResourceAttributes, '{sc.ORIGIN}'), 'observed') as origin,
        SpanName as span_name,
        SpanName in ({_SPAN_NAME_LIST}) as is_recurscope,
        SpanId as span_id
    from {{otel_traces}}
    where {_SESSION_EXPR} is not null
),

per_session as (
    select
        session_id,
        min(started_at) as first_span_at,
        max(started_at) as last_span_at,
        count(*) as spans,
        count(*) filter (where span_name = '{sc.SPAN_CALL}') as calls,
        count(*) filter (where span_name = '{sc.SPAN_TRIM}') as plannings,
        count(*) filter (where span_name = '{sc.SPAN_BOUNDARY_SHIFT}') as boundary_shifts,
        count(*) filter (where is_recurscope) as recurscope_spans,
        coalesce(sum(span_checksum(span_id)) filter (where is_recurscope), 0) as span_checksum,
        count(distinct service_name) as services,
        list_sort(list(distinct service_name) filter (where service_name is not null))
            as service_names,
        list_sort(coalesce(
            list(distinct origin) filter (where is_recurscope), list(distinct origin)
        )) as origins,
        coalesce(bool_or(
            (CAST($since AS TIMESTAMP_NS) is null or started_at >= CAST($since AS TIMESTAMP_NS))
            and (CAST($until AS TIMESTAMP_NS) is null
                 or started_at < CAST($until AS TIMESTAMP_NS))
        ), false) as in_window,
        CAST($service AS VARCHAR) is null
            or coalesce(bool_or(service_name = CAST($service AS VARCHAR)), false) as of_service
    from spans
    group by session_id
),

final as (
    select
        *,
        CAST($origins AS VARCHAR[]) is null
            or list_has_any(origins, CAST($origins AS VARCHAR[])) as of_origin
    from per_session
)

select * from final
"""

SESSION_SPINE: Final = "session_spine"
"""A table standing in for the spine query where raw spans are elsewhere (ClickHouse).

One row per session with the spine's columns and ``in_window``,
``of_service``, ``of_origin`` already decided for the filter in use
(``clickhouse.session_spine`` computes it where the spans are).
"""


def _spine_sql(tables: _Tables) -> str:
    """The per-session spine: from raw spans, or the precomputed ``session_spine``."""
    if "otel_traces" not in tables.present and SESSION_SPINE in tables.present:
        # The filter was applied when the spine was computed; the parameters
        # are named only so the statement takes the same ones.
        return (
            f"SELECT * FROM {tables.q(SESSION_SPINE)} WHERE coalesce("
            "CAST($since AS VARCHAR), CAST($until AS VARCHAR), CAST($service AS VARCHAR), "
            "CAST($origins AS VARCHAR)) IS NULL OR TRUE"
        )
    return _SESSIONS_SQL.format(otel_traces=tables.require("otel_traces"))


_SESSION_COLUMNS: Final = (
    "session_id, first_span_at, last_span_at, spans, calls, plannings, boundary_shifts, "
    "recurscope_spans, span_checksum, services, service_names, origins"
)

# Per-session counts of the evidence models over {calls}, {trims}, {delegations}
# for the sessions of {scope}: what sessions.sql counts, for these sessions.
_EVIDENCE_COUNTS_SQL: Final = """
with scope as (
    select session_id from {scope}
),

call_counts as (
    select session_id, count(*) filter (where reads_history) as history_reading_calls
    from {calls}
    where session_id in (select session_id from scope)
    group by session_id
),

trim_counts as (
    select session_id, count(*) filter (where trimmed) as trims
    from {trims}
    where session_id in (select session_id from scope)
    group by session_id
),

delegation_counts as (
    select session_id, count(*) as delegations
    from {delegations}
    where session_id in (select session_id from scope)
    group by session_id
)

select
    scope.session_id,
    coalesce(t.trims, 0),
    coalesce(d.delegations, 0),
    coalesce(c.history_reading_calls, 0)
from scope
left join call_counts as c on c.session_id = scope.session_id
left join trim_counts as t on t.session_id = scope.session_id
left join delegation_counts as d on d.session_id = scope.session_id
"""


def list_sessions(
    con: duckdb.DuckDBPyConnection,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    origins: Iterable[str] | None = None,
    service: str | None = None,
    limit: int | None = None,
) -> list[SessionSummary]:
    """The sessions in the store, latest span start first (ties by session id).

    Filters (see :class:`SessionFilter`) that select nothing give an empty
    list, never an error; :func:`describe_empty` says why. ``limit`` keeps
    the newest ``limit`` sessions (``None``: all). Reads raw spans, so a
    session is listed as soon as its spans are stored, refreshed or not (see
    the module docstring for where each count comes from). Listing costs one
    scan of the spans' session attribute, plus, for listed sessions the
    stored evidence does not cover, about what refreshing them would cost:
    ``limit`` keeps that small on a stale store.
    """
    _check_limit(limit)
    flt = SessionFilter.of(since=since, until=until, origins=origins, service=service)
    cur = con.cursor()
    try:
        install_dialect(cur)
        tables = _Tables.of(cur)
        spine = _spine_sql(tables)
        cur.execute(
            f"CREATE TEMP TABLE inspect_sessions AS SELECT {_SESSION_COLUMNS} FROM ({spine}) "
            "WHERE in_window AND of_service AND of_origin "
            "ORDER BY last_span_at DESC, session_id"
            + ("" if limit is None else f" LIMIT {int(limit)}"),
            flt._params(),
        )
        current = _mark_current_sessions(cur, tables)
        counts = _evidence_counts(cur, tables)
        rows = cur.execute(
            f"SELECT {_SESSION_COLUMNS} FROM inspect_sessions "
            "ORDER BY last_span_at DESC, session_id"
        ).fetchall()
    finally:
        cur.close()
    return [_session_summary(row, counts, current) for row in rows]


def _stored_evidence_usable(cur: duckdb.DuckDBPyConnection, tables: _Tables) -> bool:
    """Whether the stored span tables exist and were built by today's evidence SQL."""
    if not tables.present.issuperset(_EVIDENCE_TABLES):
        return False
    built_by = _scalar(
        cur,
        f"SELECT models_version FROM {tables.q(REFRESH_LOG)} "
        "ORDER BY refreshed_at DESC, seq DESC LIMIT 1",
    )
    return built_by is not None and str(built_by) == models_version()


def _mark_current_sessions(cur: duckdb.DuckDBPyConnection, tables: _Tables) -> set[str]:
    """Put the listed sessions whose stored evidence is exact in TEMP ``inspect_current``.

    The test a refresh makes: the ``session_activity`` ledger's span count
    and checksum equal the raw spans'. A session with no recurscope spans
    and no evidence rows is current too (a refresh would change nothing).
    Returns those sessions.
    """
    cur.execute("CREATE TEMP TABLE inspect_current (session_id VARCHAR)")
    if _stored_evidence_usable(cur, tables):
        cur.execute(
            f"""
            INSERT INTO inspect_current
            with ledger as (
                select session_id, sum(spans) as spans, sum(span_checksum) as span_checksum
                from {tables.q("session_activity")}
                where session_id in (select session_id from inspect_sessions)
                group by session_id
            )
            select s.session_id
            from inspect_sessions as s
            left join ledger on ledger.session_id = s.session_id
            where coalesce(ledger.spans, 0) = s.recurscope_spans
              and coalesce(ledger.span_checksum, 0) = s.span_checksum
            """
        )
    rows = cur.execute("SELECT session_id FROM inspect_current").fetchall()
    return {str(session_id) for (session_id,) in rows}


def _evidence_counts(
    cur: duckdb.DuckDBPyConnection, tables: _Tables
) -> dict[str, tuple[int, int, int]]:
    """(trims, delegations, history-reading calls) per listed session with recurscope spans.

    Stored rows for the sessions in ``inspect_current``; for the others the
    span models run here over just their raw spans (TEMP objects shadow the
    stored tables for the models' unqualified names, as in an incremental
    refresh). Sessions without recurscope spans have no rows to count.
    """
    counts: dict[str, tuple[int, int, int]] = {}
    if _scalar(cur, "SELECT count(*) FROM inspect_current"):
        stored = _EVIDENCE_COUNTS_SQL.format(
            scope="inspect_current",
            calls=tables.q("calls"),
            trims=tables.q("trims"),
            delegations=tables.q("delegations"),
        )
        counts.update(_count_rows(cur, stored))
    cur.execute(
        "CREATE TEMP TABLE inspect_stale AS SELECT session_id FROM inspect_sessions "
        "WHERE recurscope_spans > 0 "
        "AND session_id NOT IN (SELECT session_id FROM inspect_current)"
    )
    if "otel_traces" in tables.present and _scalar(cur, "SELECT count(*) FROM inspect_stale"):
        # A view, not a copy: the models then read only the columns they use
        # (a copy of whole spans, events and all, cost as much as the models).
        cur.execute(
            f"CREATE TEMP VIEW otel_traces AS SELECT * FROM {tables.q('otel_traces')} "
            f"WHERE SpanName IN ({_SPAN_NAME_LIST}) "
            f"AND {_SESSION_EXPR} IN (SELECT session_id FROM inspect_stale)"
        )
        for model in ("calls", "trims", "delegations"):
            cur.execute(f"CREATE TEMP TABLE {model} AS {sql_text(model)}")
        computed = _EVIDENCE_COUNTS_SQL.format(
            scope="inspect_stale",
            calls="temp.main.calls",
            trims="temp.main.trims",
            delegations="temp.main.delegations",
        )
        counts.update(_count_rows(cur, computed))
    return counts


def _count_rows(cur: duckdb.DuckDBPyConnection, sql: str) -> dict[str, tuple[int, int, int]]:
    return {
        str(session_id): (int(trims), int(delegations), int(reading))
        for session_id, trims, delegations, reading in cur.execute(sql).fetchall()
    }


def _session_summary(
    row: tuple[Any, ...], counts: Mapping[str, tuple[int, int, int]], current: set[str]
) -> SessionSummary:
    (
        session_id,
        first_span_at,
        last_span_at,
        spans,
        calls,
        plannings,
        boundary_shifts,
        _recurscope_spans,
        _checksum,
        services,
        service_names,
        origins,
    ) = row
    names = [terminal_safe(str(name)) for name in (service_names or [])[:_MAX_LISTED]]
    if int(services) > _MAX_LISTED:
        names.append(f"{_ELLIPSIS} (+{int(services) - _MAX_LISTED:,} more)")
    trims, delegations, reading = counts.get(str(session_id), (0, 0, 0))
    return SessionSummary(
        session_id=terminal_safe(str(session_id)),
        service_names=tuple(names),
        origins=tuple(terminal_safe(str(origin)) for origin in (origins or [])[:_MAX_LISTED]),
        first_span_at=_utc(first_span_at),
        last_span_at=_utc(last_span_at),
        spans=int(spans),
        calls=int(calls),
        plannings=int(plannings),
        trims=trims,
        boundary_shifts=int(boundary_shifts),
        delegations=delegations,
        history_reading_calls=reading,
        evidence_current=str(session_id) in current,
    )


# --------------------------------------------------------------------------
# Quarantine.


def _quarantine_where(flt: QuarantineFilter) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []
    if flt.source is not None:
        clauses.append("q.Source = ?")
        params.append(flt.source)
    if flt.reason is not None:
        clauses.append("q.Reason = ?")
        params.append(flt.reason)
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def list_quarantine(
    con: duckdb.DuckDBPyConnection,
    *,
    source: str | None = None,
    reason: str | None = None,
    limit: int | None = None,
    excerpt_chars: int = DEFAULT_EXCERPT_CHARS,
) -> list[QuarantineRecord]:
    """Quarantined records, latest run first and in source order within a run.

    ``source`` and ``reason`` match exactly (see :class:`QuarantineFilter`);
    a filter that selects nothing gives an empty list (:func:`describe_empty`
    says why). ``excerpt_chars`` bounds each excerpt as shown.
    """
    _check_limit(limit)
    if excerpt_chars < 1:
        raise ValueError(f"excerpt_chars must be at least 1, got {excerpt_chars}")
    cur = con.cursor()
    try:
        tables = _Tables.of(cur)
        where, params = _quarantine_where(QuarantineFilter(source, reason))
        name, detail = MAX_NAME_CHARS + 1, MAX_DETAIL_CHARS + 1
        # Text is cut in SQL to what terminal_safe reads, so huge values never cross over.
        rows = cur.execute(
            f"""
            SELECT q.IngestId, left(q.Source, {name}), left(l.Format, {name}),
                q.Line, q.ByteOffset, q.SpanIndex,
                left(q.Reason, {name}), left(q.Detail, {detail}),
                left(q.TraceId, {name}), left(q.SpanId, {name}),
                left(q.Excerpt, {int(excerpt_chars) + 1}), q.QuarantinedAt
            FROM {tables.require("quarantine")} AS q
            LEFT JOIN {tables.require("ingest_log")} AS l ON l.IngestId = q.IngestId
            {where}
            ORDER BY q.QuarantinedAt DESC, q.IngestId DESC, q.ByteOffset NULLS LAST,
                q.Line NULLS LAST, q.SpanIndex NULLS LAST
            {"" if limit is None else f"LIMIT {int(limit)}"}
            """,
            params,
        ).fetchall()
    finally:
        cur.close()
    return [
        QuarantineRecord(
            ingest_id=int(ingest_id),
            source=terminal_safe(str(src)),
            format=None if fmt is None else terminal_safe(str(fmt)),
            line=None if line is None else int(line),
            byte_offset=None if byte_offset is None else int(byte_offset),
            span_index=None if span_index is None else int(span_index),
            reason=terminal_safe(str(why)),
            detail=terminal_safe(str(detail), MAX_DETAIL_CHARS),
            trace_id=terminal_safe(str(trace_id)),
            span_id=terminal_safe(str(span_id)),
            excerpt=terminal_safe(str(excerpt), excerpt_chars),
            quarantined_at=_utc(quarantined_at),
        )
        for (
            ingest_id,
            src,
            fmt,
            line,
            byte_offset,
            span_index,
            why,
            detail,
            trace_id,
            span_id,
            excerpt,
            quarantined_at,
        ) in rows
    ]


def quarantine_summary(
    con: duckdb.DuckDBPyConnection, *, source: str | None = None, reason: str | None = None
) -> list[QuarantineCount]:
    """Quarantined records counted by (source, reason), by source then most records first.

    The counts add up to the rows :func:`list_quarantine` returns for the
    same filters. Distinct stored values count apart even when their shown
    (cut) forms look alike.
    """
    cur = con.cursor()
    try:
        tables = _Tables.of(cur)
        where, params = _quarantine_where(QuarantineFilter(source, reason))
        rows = cur.execute(
            f"""
            SELECT left(q.Source, {MAX_NAME_CHARS + 1}), left(q.Reason, {MAX_NAME_CHARS + 1}),
                count(*), count(DISTINCT q.IngestId), min(q.QuarantinedAt), max(q.QuarantinedAt)
            FROM {tables.require("quarantine")} AS q
            {where}
            GROUP BY q.Source, q.Reason
            ORDER BY q.Source, count(*) DESC, q.Reason
            """,
            params,
        ).fetchall()
    finally:
        cur.close()
    return [
        QuarantineCount(
            source=terminal_safe(str(src)),
            reason=terminal_safe(str(why)),
            records=int(records),
            runs=int(runs),
            first_at=_utc(first_at),
            last_at=_utc(last_at),
        )
        for src, why, records, runs, first_at, last_at in rows
    ]


# --------------------------------------------------------------------------
# Why a filter selected nothing.


def describe_empty(
    con: duckdb.DuckDBPyConnection, filters: SessionFilter | QuarantineFilter
) -> str:
    """One sentence saying why ``filters`` select nothing ('' when they do select something).

    For example ``no sessions since 2026-12-01 (the newest span is
    2026-11-28 17:02:11 UTC)`` or ``no quarantine records with reason 'x'
    (reasons present: 'invalid_json' (3))``. Values from the store and the
    filter are made safe to print.
    """
    cur = con.cursor()
    try:
        if isinstance(filters, SessionFilter):
            install_dialect(cur)
            return _describe_empty_sessions(cur, _Tables.of(cur), filters)
        return _describe_empty_quarantine(cur, _Tables.of(cur), filters)
    finally:
        cur.close()


def _window_text(flt: SessionFilter) -> str:
    if flt.since is not None and flt.until is not None:
        return f"between {_when(flt.since)} and {_when(flt.until)}"
    if flt.since is not None:
        return f"since {_when(flt.since)}"
    assert flt.until is not None
    return f"before {_when(flt.until)}"


def _origins_text(origins: tuple[str, ...]) -> str:
    if not origins:
        return "with origin in an empty list"
    return "with origin " + " or ".join(_quoted(origin) for origin in origins)


def _describe_empty_sessions(
    cur: duckdb.DuckDBPyConnection, tables: _Tables, flt: SessionFilter
) -> str:
    spine = _spine_sql(tables)
    row = cur.execute(
        f"""
        SELECT count(*),
            count(*) FILTER (WHERE in_window),
            count(*) FILTER (WHERE of_service),
            count(*) FILTER (WHERE of_origin),
            count(*) FILTER (WHERE in_window AND of_service AND of_origin),
            min(first_span_at), max(last_span_at)
        FROM ({spine})
        """,
        flt._params(),
    ).fetchone()
    assert row is not None
    sessions, in_window, of_service, of_origin, matching, oldest, newest = row
    if matching:
        return ""
    if not sessions:
        spans = (
            _scalar(cur, f"SELECT count(*) FROM {tables.q('otel_traces')}")
            if "otel_traces" in tables.present
            else 0
        )
        if not spans:
            return (
                "no sessions: the store holds no spans yet (ingest some with "
                "`recurscope ingest FILE` or send them to `recurscope serve`)"
            )
        return (
            f"no sessions: none of the store's {spans:,} spans carries "
            f"{sc.GEN_AI_CONVERSATION_ID}, the span attribute that names a session"
        )
    reasons: list[str] = []
    if (flt.since is not None or flt.until is not None) and not in_window:
        since, until = _naive_utc(flt.since), _naive_utc(flt.until)
        if since is not None and until is not None and since >= until:
            reasons.append(
                f"no sessions {_window_text(flt)}: the window is empty (since must be before until)"
            )
        elif until is None:
            reasons.append(f"no sessions {_window_text(flt)} (the newest span is {_when(newest)})")
        elif since is None:
            reasons.append(f"no sessions {_window_text(flt)} (the oldest span is {_when(oldest)})")
        else:
            reasons.append(
                f"no sessions {_window_text(flt)} "
                f"(spans run from {_when(oldest)} to {_when(newest)})"
            )
    if flt.service is not None and not of_service:
        known = _known_values(cur, spine, flt, "unnest(service_names)")
        reasons.append(
            f"no sessions of service {_quoted(flt.service)} "
            + (f"(known services: {_names(*known)})" if known[0] else "(no span names a service)")
        )
    if flt.origins is not None and not of_origin:
        known = _known_values(cur, spine, flt, "unnest(origins)")
        reasons.append(
            f"no sessions {_origins_text(flt.origins)} (origins in the store: {_names(*known)})"
        )
    if reasons:
        return "; ".join(reasons)
    # Each filter selects sessions on its own; together they select none.
    parts: list[str] = []
    if flt.since is not None or flt.until is not None:
        parts.append(f"{in_window:,} {_window_text(flt)}")
    if flt.service is not None:
        parts.append(f"{of_service:,} of service {_quoted(flt.service)}")
    if flt.origins is not None:
        parts.append(f"{of_origin:,} {_origins_text(flt.origins)}")
    return (
        "no session passes every filter at once, though each selects sessions on its own ("
        + ", ".join(parts)
        + ")"
    )


def _known_values(
    cur: duckdb.DuckDBPyConnection, spine: str, flt: SessionFilter, expression: str
) -> tuple[list[str], list[int]]:
    """The values of a per-session list column, with the sessions having each, most first."""
    rows = cur.execute(
        f"""
        SELECT value, count(*) AS sessions
        FROM (SELECT {expression} AS value FROM ({spine}))
        GROUP BY value
        ORDER BY sessions DESC, value
        """,
        flt._params(),
    ).fetchall()
    return [str(value) for value, _ in rows], [int(n) for _, n in rows]


def _describe_empty_quarantine(
    cur: duckdb.DuckDBPyConnection, tables: _Tables, flt: QuarantineFilter
) -> str:
    quarantine = tables.require("quarantine")
    where, params = _quarantine_where(flt)
    if _scalar(cur, f"SELECT count(*) FROM {quarantine} AS q{where}", params):
        return ""
    if not _scalar(cur, f"SELECT count(*) FROM {quarantine}"):
        runs, records = cur.execute(
            f"SELECT count(*), coalesce(sum(RecordsRead), 0) FROM {tables.require('ingest_log')}"
        ).fetchone() or (0, 0)
        if not runs:
            return "no quarantine records: nothing has been ingested yet"
        return (
            f"no quarantine records: every one of the {int(records):,} records read in "
            f"{int(runs):,} ingest run{'s' if runs != 1 else ''} was stored or was a duplicate"
        )
    reasons: list[str] = []
    if flt.source is not None and not _scalar(
        cur, f"SELECT count(*) FROM {quarantine} WHERE Source = ?", [flt.source]
    ):
        reasons.append(_describe_unknown_source(cur, tables, flt.source))
    if flt.reason is not None and not _scalar(
        cur, f"SELECT count(*) FROM {quarantine} WHERE Reason = ?", [flt.reason]
    ):
        reasons.append(_describe_unknown_reason(cur, tables, flt.reason))
    if reasons:
        return "; ".join(reasons)
    # Both match records, but not the same ones.
    assert flt.source is not None and flt.reason is not None
    present = _reason_counts(cur, tables, flt.source)
    return (
        f"no quarantine records from {_quoted(flt.source)} with reason {_quoted(flt.reason)} "
        f"(that source's reasons: {_names(*present)})"
    )


def _reason_counts(
    cur: duckdb.DuckDBPyConnection, tables: _Tables, source: str | None = None
) -> tuple[list[str], list[int]]:
    """Reasons in the quarantine (of ``source``, or all), with their records, most first."""
    where, params = _quarantine_where(QuarantineFilter(source=source))
    rows = cur.execute(
        f"SELECT q.Reason, count(*) AS n FROM {tables.q('quarantine')} AS q{where} "
        "GROUP BY q.Reason ORDER BY n DESC, q.Reason",
        params,
    ).fetchall()
    return [str(reason) for reason, _ in rows], [int(n) for _, n in rows]


def _describe_unknown_reason(cur: duckdb.DuckDBPyConnection, tables: _Tables, reason: str) -> str:
    text = (
        f"no quarantine records with reason {_quoted(reason)} "
        f"(reasons present: {_names(*_reason_counts(cur, tables))})"
    )
    known = [str(member) for member in Reason]
    if reason not in known:
        text += (
            f"; {_quoted(reason)} is not a reason recurscope records (reasons: "
            + ", ".join(known)
            + ")"
        )
    return text


def _describe_unknown_source(cur: duckdb.DuckDBPyConnection, tables: _Tables, source: str) -> str:
    text = f"no quarantine records from {_quoted(source)}"
    logged = cur.execute(
        f"SELECT count(*), coalesce(sum(RecordsRead), 0) FROM {tables.require('ingest_log')} "
        "WHERE Source = ?",
        [source],
    ).fetchone() or (0, 0)
    if logged[0]:
        runs, records = int(logged[0]), int(logged[1])
        return (
            f"{text}: it was ingested ({runs:,} run{'s' if runs != 1 else ''}, "
            f"{records:,} records read) and nothing from it was quarantined"
        )
    rows = cur.execute(
        f"SELECT Source, count(*) AS n FROM {tables.q('quarantine')} "
        "GROUP BY Source ORDER BY n DESC, Source"
    ).fetchall()
    known = [str(name) for name, _ in rows]
    text += " (sources with quarantine records: " + _names(known) + ")"
    # Sources are stored as absolute paths: a bare file name is the usual slip.
    base = os.path.basename(source.rstrip("/"))
    likely = [name for name in known if base and os.path.basename(name) == base]
    if likely:
        text += f"; did you mean {_quoted(likely[0], MAX_NAME_CHARS)}?"
    return text
