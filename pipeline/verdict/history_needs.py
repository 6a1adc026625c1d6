"""Which record fields generated code reads, and how far back: the design record's questions 1 and 2.

Read from an :class:`~recurscope.pipeline.evidence.views.EvidenceView` (the
report's scope), from the ``field_reads`` and ``read_depths`` evidence
tables. Descriptive: nothing here feeds a verdict. Quantiles are nearest-rank
(the smallest value at or below which at least that share of calls lies), so
"p99 = 12 records" reads "99% of reads fall within the last 12 records".
"""

from __future__ import annotations

from typing import Any, Final

from ..evidence.views import EvidenceView
from .document import DepthRow, FieldGroupRow, FieldReadRow, HistoryNeedsInfo, RetentionRow

__all__ = ["OUTCOME_KEYS", "V1_FIELDS", "history_needs"]

V1_FIELDS: Final = (
    "call_id",
    "timestamp",
    "speaker",
    "method_name",
    "args",
    "kwargs",
    "outcome_summary",
)
"""The V1 history record (``HistoryRecord``), in its order."""

OUTCOME_KEYS: Final = (
    "outcome_summary.ok",
    "outcome_summary.status",
    "outcome_summary.value_class",
    "outcome_summary.error_type",
    "outcome_summary.error_message",
    "outcome_summary.content_ref",
)
"""Keys of ``outcome_summary`` the runtimes write, as fields read name them."""

GROUP_LIMIT: Final = 8
"""Roles and prompt versions shown per dimension (most calls first)."""

_UNITS: Final = (
    ("records", "depth_records"),
    ("seconds", "depth_seconds"),
    ("tokens", "depth_tokens"),
)


def history_needs(view: EvidenceView) -> HistoryNeedsInfo:
    """Fields read and read depth over the view's history-reading calls."""
    reading, with_fields, sessions_with_fields = view.query(
        """
        SELECT count(*),
            count(*) FILTER (WHERE len(fields_read) > 0),
            count(DISTINCT session_id) FILTER (WHERE len(fields_read) > 0)
        FROM calls WHERE reads_history
        """
    )[0]
    read = {
        str(r["field"]): r
        for r in view.records(
            "SELECT field, count(DISTINCT span_id) AS calls, "
            "count(DISTINCT session_id) AS sessions FROM field_reads GROUP BY field"
        )
    }
    known = (*V1_FIELDS, *OUTCOME_KEYS)
    order = [*known, *sorted(set(read) - set(known), key=lambda f: (-read[f]["calls"], f))]
    fields = tuple(
        FieldReadRow(
            field=name,
            v1=name in known,
            calls=int(read[name]["calls"]) if name in read else 0,
            share=_ratio(read[name]["calls"] if name in read else 0, with_fields),
            sessions=int(read[name]["sessions"]) if name in read else 0,
        )
        for name in order
    )
    never = tuple(name for name in known if name not in read)
    depth_rows = tuple(_depth(view, unit, column) for unit, column in _UNITS)
    counts = view.records(
        """
        SELECT
            count(*) FILTER (WHERE depth_source = 'runtime') AS runtime,
            count(*) FILTER (WHERE depth_source = 'static') AS static,
            count(*) FILTER (WHERE depth_source IS NULL) AS unknown,
            count(*) FILTER (WHERE reached_oldest) AS reached_oldest,
            count(*) FILTER (WHERE hit_eviction) AS hit_eviction,
            count(DISTINCT session_id) FILTER (WHERE evicted_before > 0) AS evicting_sessions,
            count(within_static_bound) AS static_checked,
            count(*) FILTER (WHERE NOT within_static_bound) AS static_exceeded,
            min(day) AS first_day,
            max(day) AS last_day
        FROM read_depths
        """
    )[0]
    origins = tuple(
        str(r[0])
        for r in view.query("SELECT DISTINCT origin FROM calls WHERE reads_history ORDER BY 1")
    )
    return HistoryNeedsInfo(
        reading_calls=int(reading),
        calls_with_fields=int(with_fields),
        sessions_with_fields=int(sessions_with_fields),
        fields=fields,
        never_read=never,
        by_group=_by_group(view),
        depth=depth_rows,
        depth_runtime=int(counts["runtime"]),
        depth_static=int(counts["static"]),
        depth_unknown=int(counts["unknown"]),
        reached_oldest=int(counts["reached_oldest"]),
        hit_eviction=int(counts["hit_eviction"]),
        evicting_sessions=int(counts["evicting_sessions"]),
        static_checked=int(counts["static_checked"]),
        static_exceeded=int(counts["static_exceeded"]),
        first_day=None if counts["first_day"] is None else counts["first_day"].isoformat(),
        last_day=None if counts["last_day"] is None else counts["last_day"].isoformat(),
        origins=origins,
        retention=_by_retention(view),
    )


def _by_retention(view: EvidenceView) -> tuple[RetentionRow, ...]:
    """Per retention policy (``recurscope.history.retention``): reach and eviction hits."""
    rows = view.records(
        """
        WITH ranked AS (
            SELECT coalesce(history_retention, '(unknown)') AS retention, session_id,
                depth_records, reached_oldest, hit_eviction,
                CASE WHEN depth_records IS NOT NULL THEN cume_dist() OVER (
                    PARTITION BY coalesce(history_retention, '(unknown)'),
                        depth_records IS NOT NULL
                    ORDER BY depth_records
                ) END AS at_or_below
            FROM read_depths
        )
        SELECT retention, count(*) AS calls, count(DISTINCT session_id) AS sessions,
            min(depth_records) FILTER (WHERE at_or_below >= 0.99) AS depth_p99,
            count(*) FILTER (WHERE reached_oldest) AS reached_oldest,
            count(*) FILTER (WHERE hit_eviction) AS hit_eviction
        FROM ranked GROUP BY retention ORDER BY calls DESC, retention
        """
    )
    return tuple(
        RetentionRow(
            retention=str(r["retention"]),
            calls=int(r["calls"]),
            sessions=int(r["sessions"]),
            depth_p99=None if r["depth_p99"] is None else float(r["depth_p99"]),
            reached_oldest=int(r["reached_oldest"]),
            hit_eviction=int(r["hit_eviction"]),
        )
        for r in rows
    )


def _ratio(numerator: Any, denominator: Any) -> float | None:
    return float(numerator) / float(denominator) if denominator else None


def _depth(view: EvidenceView, unit: str, column: str) -> DepthRow:
    """Nearest-rank quantiles of one depth column (``cume_dist``: share of calls at or below)."""
    row = view.records(
        f"""
        WITH known AS (
            SELECT session_id, CAST({column} AS DOUBLE) AS v,
                cume_dist() OVER (ORDER BY {column}) AS at_or_below
            FROM read_depths WHERE {column} IS NOT NULL
        )
        SELECT count(*) AS calls, count(DISTINCT session_id) AS sessions,
            min(v) FILTER (WHERE at_or_below >= 0.5) AS median,
            min(v) FILTER (WHERE at_or_below >= 0.9) AS p90,
            min(v) FILTER (WHERE at_or_below >= 0.99) AS p99,
            max(v) AS max
        FROM known
        """
    )[0]
    return DepthRow(
        unit=unit,
        calls=int(row["calls"]),
        sessions=int(row["sessions"]),
        median=row["median"],
        p90=row["p90"],
        p99=row["p99"],
        max=row["max"],
    )


def _by_group(view: EvidenceView) -> tuple[FieldGroupRow, ...]:
    """Per role and prompt version (the most active ones): each field's read share."""
    out: list[FieldGroupRow] = []
    for dimension in ("role", "prompt_version"):
        rows = view.query(
            f"""
            WITH groups AS (
                SELECT coalesce({dimension}, '(none)') AS grp, count(*) AS group_calls
                FROM calls WHERE reads_history AND len(fields_read) > 0
                GROUP BY 1 ORDER BY group_calls DESC, grp LIMIT {GROUP_LIMIT}
            ),
            reads AS (
                SELECT coalesce({dimension}, '(none)') AS grp, field,
                    count(DISTINCT span_id) AS calls
                FROM field_reads GROUP BY 1, 2
            )
            SELECT g.grp, r.field, r.calls, g.group_calls
            FROM groups AS g JOIN reads AS r USING (grp)
            ORDER BY g.group_calls DESC, g.grp, r.calls DESC, r.field
            """
        )
        out.extend(
            FieldGroupRow(
                dimension=dimension,
                group=str(grp),
                field=str(field),
                calls=int(calls),
                group_calls=int(group_calls),
                share=_ratio(calls, group_calls),
            )
            for grp, field, calls, group_calls in rows
        )
    return tuple(out)
