"""Why a filtered report selects nothing: what was asked, and what the store holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import duckdb

from ..evidence.inspect import terminal_safe
from ..evidence.views import EvidenceFilter, EvidenceView, origin_counts
from .report import report_filter
from .rule import (
    load_preregistration,
)

_SELECTION_ROWS: Final = " UNION ALL ".join(
    f"SELECT session_id, started_at, service_name, role, prompt_version, origin FROM {table} "
    "WHERE session_id IS NOT NULL"
    for table in ("calls", "delegations", "trims", "boundary_shifts")
)


_MAX_NAMED: Final = 10


# Filter field -> (what the sentence calls one value, what it calls them all, column).
_FIELDS: Final = {
    "service": ("of service", "services", "service_name"),
    "role": ("with role", "roles", "role"),
    "prompt_version": ("with prompt version", "prompt versions", "prompt_version"),
}


def _when_text(moment: datetime | None) -> str:
    return "?" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S")


def _range_text(since: datetime | None, until: datetime | None) -> str:
    if since is not None and until is not None:
        return f"from {_when_text(since)} to {_when_text(until)} UTC"
    if since is not None:
        return f"from {_when_text(since)} UTC on"
    return f"before {_when_text(until)} UTC"


def _quoted(value: str) -> str:
    return repr(terminal_safe(value))


def _present(rows: Sequence[tuple[Any, ...]], total: int, noun: str) -> str:
    named = ", ".join(f"{_quoted(str(value))} ({int(n):,})" for value, n in rows[:_MAX_NAMED])
    more = f" and {total - _MAX_NAMED:,} more" if total > _MAX_NAMED else ""
    return (
        f"{noun} present, with their sessions: {named}{more}" if named else f"no span names {noun}"
    )


def describe_empty_selection(
    con: duckdb.DuckDBPyConnection,
    evidence_filter: EvidenceFilter,
    *,
    preregistered: tuple[datetime | None, datetime | None] = (None, None),
) -> str:
    """'' when ``evidence_filter`` selects a session, else one sentence: what was asked, what exists.

    For example ``no sessions with role 'reviewer' (roles present, with their
    sessions: 'coder' (12), 'planner' (3))`` or ``no sessions from
    2027-01-01 00:00:00 UTC on (spans run from ... to ... UTC)``; when each
    filter selects sessions alone but not together, it says how many each
    does. ``preregistered`` is the pre-registered window the filter was
    narrowed to, named when it is why nothing is left. The filter's
    ``predicates`` are not considered (a comparison's groups say their own).
    Values from the store and the filter are made safe to print.
    """
    flt = dataclasses.replace(evidence_filter, predicates={})
    origin_only = EvidenceFilter(origins=flt.origins)
    singles: dict[str, EvidenceFilter] = {}
    if flt.since is not None or flt.until is not None:
        singles["window"] = EvidenceFilter(since=flt.since, until=flt.until, origins=flt.origins)
    for name in _FIELDS:
        if getattr(flt, name) is not None:
            singles[name] = dataclasses.replace(origin_only, **{name: getattr(flt, name)})
    checks = {"all": EvidenceFilter(), "origin": origin_only, "selected": flt, **singles}
    counts_sql = ", ".join(
        f"count(DISTINCT session_id) FILTER (WHERE coalesce({f.condition('calls')}, FALSE))"
        for f in checks.values()
    )
    with EvidenceView(con, EvidenceFilter()) as view:
        row = view.query(
            f"WITH selection AS ({_SELECTION_ROWS}) "
            f"SELECT {counts_sql}, min(started_at), max(started_at) FROM selection"
        )[0]
        counts = dict(zip(checks, (int(n) for n in row[: len(checks)]), strict=True))
        oldest, newest = row[len(checks)], row[len(checks) + 1]
        if counts["selected"]:
            return ""
        if not counts["all"]:
            return (
                "no sessions: the store holds no recurscope spans yet (ingest some with "
                "`recurscope ingest FILE` or send them to `recurscope serve`)"
            )

        def present(column: str, flt_for: EvidenceFilter, noun: str) -> str:
            where = f"coalesce({flt_for.condition('calls')}, FALSE) AND {column} IS NOT NULL"
            values = view.query(
                f"WITH selection AS ({_SELECTION_ROWS}) SELECT {column}, "
                f"count(DISTINCT session_id) AS n FROM selection WHERE {where} "
                f"GROUP BY {column} ORDER BY n DESC, {column}"
            )
            return _present(values, len(values), noun)

        if flt.origins is not None and not counts["origin"]:
            wanted = " or ".join(_quoted(o) for o in flt.origins) or "none"
            return (
                f"no sessions with origin {wanted} "
                f"({present('origin', EvidenceFilter(), 'origins')}; --include-simulated "
                "adds simulated and replayed spans)"
            )
        reasons: list[str] = []
        start, end = preregistered
        if "window" in singles and not counts["window"]:
            if flt.since is not None and flt.until is not None and flt.since >= flt.until:
                reasons.append(
                    "no sessions: the asked window lies outside the pre-registered window "
                    f"({_range_text(start, end)})"
                    if start is not None or end is not None
                    else f"no sessions: the window {_range_text(flt.since, flt.until)} is empty "
                    "(since must be before until)"
                )
            else:
                bounded = (
                    f"; the pre-registered window is {_range_text(start, end)}"
                    if start is not None or end is not None
                    else ""
                )
                reasons.append(
                    f"no sessions {_range_text(flt.since, flt.until)} (spans run from "
                    f"{_when_text(oldest)} to {_when_text(newest)} UTC{bounded})"
                )
        for name, (one, many, column) in _FIELDS.items():
            if name in singles and not counts[name]:
                reasons.append(
                    f"no sessions {one} {_quoted(str(getattr(flt, name)))} "
                    f"({present(column, origin_only, many)})"
                )
        if reasons:
            return "; ".join(reasons)
    parts = []
    for name, count in counts.items():
        if name == "window":
            parts.append(f"{count:,} {_range_text(flt.since, flt.until)}")
        elif name in _FIELDS:
            parts.append(f"{count:,} {_FIELDS[name][0]} {_quoted(str(getattr(flt, name)))}")
    return (
        "no session passes every filter at once, though each selects sessions on its own ("
        + ", ".join(parts)
        + ")"
    )


def explain_empty_report(
    con: duckdb.DuckDBPyConnection,
    preregistration_path: str | Path,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    service: str | None = None,
    role: str | None = None,
    prompt_version: str | None = None,
    include_simulated: bool = False,
) -> str:
    """:func:`describe_empty_selection` for what :func:`build_report` with these arguments reads."""
    prereg = load_preregistration(preregistration_path)
    evidence_filter = report_filter(
        prereg,
        origin_counts(con),
        since=since,
        until=until,
        service=service,
        role=role,
        prompt_version=prompt_version,
        include_simulated=include_simulated,
    )
    return describe_empty_selection(
        con, evidence_filter, preregistered=(prereg.window.start, prereg.window.end)
    )
