"""Comparisons between two groups: strategy, prompt version, model, service version, dates.

``compare(con, by="prompt_version")`` answers questions like "does prompt v7
read history more than v6?" or the Go runtime's own "does compaction reduce
how often trimming fires?" (``by="compaction"``, ``trim_pressure``). For
each criterion it gives the two ratio-of-sums estimates and their
difference with a session-bootstrap interval.

Groups are formed row by row where the attribute lives on the rows (a call's
prompt version, a planning's strategy, a span's date), so a session that
switched mid-way contributes to both groups; the bootstrap draws the same
sessions for both groups, keeping such a session paired with itself.
Comparisons are exploratory by nature: they never produce a verdict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import duckdb
import numpy as np

from ..errors import PipelineError
from ..evidence.views import EvidenceFilter, EvidenceView, SessionMatrix, origin_counts, sql_literal
from .rule import default_preregistration_path, load_preregistration
from .selection import describe_empty_selection
from .stats import bootstrap_differences, percentile_interval, ratio_of_sums

__all__ = [
    "COMPARED_CRITERIA",
    "DIMENSIONS",
    "Comparison",
    "Difference",
    "Dimension",
    "compare",
]

_SPAN_TABLES: Final = ("calls", "delegations", "trims", "boundary_shifts")

# Criterion -> the span tables its numerator and denominator come from.
_CRITERION_TABLES: Final[Mapping[str, tuple[str, ...]]] = {
    "contextview_shaped_share": ("calls",),
    "boilerplate_share": ("calls",),
    "history_reliance": ("calls",),
    "same_role_share": ("delegations",),
    "goal_overflow_share": ("trims",),
    "trim_pressure": ("trims",),
    "boundary_shifts_per_session": ("boundary_shifts",),
    "same_task_reemit_share": ("boundary_shifts",),
}

COMPARED_CRITERIA: Final = tuple(_CRITERION_TABLES)
"""Criteria a comparison reports (the primary ones and the descriptive rates)."""


@dataclass(frozen=True, slots=True)
class Dimension:
    """What to group by: a column present on some span tables, or a session-level property.

    ``tables`` are the span tables carrying ``column``; criteria computed
    from other tables cannot differ between the groups and are skipped.
    ``session_level`` dimensions put each whole session in one group.
    """

    name: str
    column: str
    tables: tuple[str, ...]
    session_level: bool = False
    note: str = ""


DIMENSIONS: Final[Mapping[str, Dimension]] = {
    "prompt_version": Dimension("prompt_version", "prompt_version", _SPAN_TABLES),
    "model": Dimension("model", "model", _SPAN_TABLES),
    "service_version": Dimension("service_version", "service_version", _SPAN_TABLES),
    "service": Dimension("service", "service_name", _SPAN_TABLES),
    "role": Dimension("role", "role", _SPAN_TABLES),
    "strategy": Dimension("strategy", "strategy", ("trims",)),
    "compaction": Dimension(
        "compaction",
        "compaction",
        _SPAN_TABLES,
        session_level=True,
        note=(
            "Compaction is only visible on plannings that trimmed: a session is 'on' when any "
            "planning used or tried a summarizer, else 'off'. Sessions that never trimmed land "
            "in 'off' whatever their configuration, which pulls 'off' trim pressure down. "
            "Prefer grouping by a configuration attribute (prompt_version, service_version) "
            "that records compaction on or off."
        ),
    ),
}
"""Supported ``--by`` values; span attribute names are accepted as aliases."""

_ALIASES: Final = {
    "recurscope.prompt.version": "prompt_version",
    "gen_ai.request.model": "model",
    "service.version": "service_version",
    "service.name": "service",
    "recurscope.call.role": "role",
    "gen_ai.agent.name": "role",
    "recurscope.trim.strategy": "strategy",
    "recurscope.trim.compaction.used": "compaction",
}


def resolve_dimension(by: str) -> Dimension:
    """The :class:`Dimension` for ``--by`` (a name from :data:`DIMENSIONS` or an attribute)."""
    name = _ALIASES.get(by, by)
    try:
        return DIMENSIONS[name]
    except KeyError:
        known = ", ".join(sorted({*DIMENSIONS, *_ALIASES}))
        raise PipelineError(f"Cannot compare by {by!r}; use one of: {known}.") from None


@dataclass(frozen=True, slots=True)
class Difference:
    """``estimate_a − estimate_b`` of one criterion with its bootstrap interval."""

    criterion: str
    estimate_a: float | None
    estimate_b: float | None
    difference: float | None
    lower: float | None
    upper: float | None
    confidence: float
    sessions_a: int
    sessions_b: int
    excludes_zero: bool


@dataclass(frozen=True, slots=True)
class Comparison:
    """Group A versus group B on every applicable criterion."""

    by: str
    group_a: str
    group_b: str
    sessions_a: int
    sessions_b: int
    other_groups: tuple[str, ...]
    differences: tuple[Difference, ...]
    skipped: tuple[str, ...]
    resamples: int
    seed: int
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data with stable keys."""
        return {
            "by": self.by,
            "group_a": self.group_a,
            "group_b": self.group_b,
            "sessions_a": self.sessions_a,
            "sessions_b": self.sessions_b,
            "other_groups": list(self.other_groups),
            "differences": [
                {
                    "criterion": d.criterion,
                    "estimate_a": d.estimate_a,
                    "estimate_b": d.estimate_b,
                    "difference": d.difference,
                    "lower": d.lower,
                    "upper": d.upper,
                    "confidence": d.confidence,
                    "sessions_a": d.sessions_a,
                    "sessions_b": d.sessions_b,
                    "excludes_zero": d.excludes_zero,
                }
                for d in self.differences
            ],
            "skipped": list(self.skipped),
            "resamples": self.resamples,
            "seed": self.seed,
            "exploratory": True,
            "notes": list(self.notes),
        }

    def to_markdown(self) -> str:
        """A Markdown table of the differences (exploratory)."""
        lines = [
            f"# Comparison by {self.by}: {self.group_a} vs {self.group_b} (exploratory)",
            "",
            f"Sessions: {self.group_a} {self.sessions_a:,}, {self.group_b} {self.sessions_b:,}. "
            f"Difference = {self.group_a} − {self.group_b}; session bootstrap, "
            f"{self.resamples:,} resamples (seed {self.seed}), percentile intervals.",
            "",
            f"| criterion | {self.group_a} | {self.group_b} | difference | interval | excludes 0 |",
            "| --- | --- | --- | --- | --- | --- |",
        ]

        def fmt(value: float | None, rate: bool) -> str:
            if value is None:
                return "–"
            return f"{value:+.2f}" if rate else f"{value:.1%}"

        for d in self.differences:
            rate = d.criterion == "boundary_shifts_per_session"
            diff = (
                "–"
                if d.difference is None
                else (f"{d.difference:+.2f}" if rate else f"{d.difference * 100:+.1f} pts")
            )
            interval = (
                "–"
                if d.lower is None or d.upper is None
                else (
                    f"[{d.lower:+.2f}, {d.upper:+.2f}]"
                    if rate
                    else f"[{d.lower * 100:+.1f}, {d.upper * 100:+.1f}] pts"
                )
            )
            lines.append(
                f"| `{d.criterion}` | {fmt(d.estimate_a, rate).lstrip('+')} "
                f"| {fmt(d.estimate_b, rate).lstrip('+')} | {diff} | {interval} "
                f"| {'yes' if d.excludes_zero else 'no'} |"
            )
        if self.skipped:
            lines += [
                "",
                f"Not compared (their rows do not carry {self.by}): "
                + ", ".join(f"`{s}`" for s in self.skipped)
                + ".",
            ]
        if self.other_groups:
            lines += ["", "Other groups present: " + ", ".join(self.other_groups) + "."]
        lines += [f"\n> {note}" for note in self.notes]
        return "\n".join(lines) + "\n"


def _group_sizes(
    con: duckdb.DuckDBPyConnection,
    dimension: Dimension,
    base: EvidenceFilter,
    min_other_sessions: int,
) -> tuple[dict[str, int], list[str], int]:
    """Sessions per group value, (session-level dimensions) the 'on' sessions, all sessions."""
    with EvidenceView(con, base, min_other_sessions=min_other_sessions) as view:
        total = int(view.query("SELECT count(*) FROM sessions")[0][0])
        if dimension.session_level:
            on = [
                str(row[0])
                for row in view.query(
                    "SELECT DISTINCT session_id FROM trims "
                    "WHERE session_id IS NOT NULL AND (compaction_used OR compaction_failed)"
                )
            ]
            return {"on": len(on), "off": total - len(on)}, on, total
        parts = " UNION ALL ".join(
            f"SELECT session_id, {dimension.column} AS value FROM {table}"
            for table in dimension.tables
        )
        rows = view.query(
            f"SELECT value, count(DISTINCT session_id) FROM ({parts}) "
            "WHERE session_id IS NOT NULL AND value IS NOT NULL GROUP BY value"
        )
    return {str(value): int(n) for value, n in rows}, [], total


def _nothing_selected(con: duckdb.DuckDBPyConnection, base: EvidenceFilter) -> PipelineError:
    """The error for filters that leave no session to compare: what was asked, what exists."""
    reason = describe_empty_selection(con, base) or "no sessions"
    return PipelineError(f"Nothing to compare: {reason}.")


def _group_filter(
    base: EvidenceFilter,
    dimension: Dimension,
    value: str,
    on_sessions: Sequence[str],
    split_date: datetime | None,
) -> EvidenceFilter:
    if split_date is not None or dimension.session_level:
        # Session-level groups: 'before'/'on' are the listed sessions.
        membership = f"list_contains({sql_literal(list(on_sessions))}, session_id)"
        condition = membership if value in ("on", "before") else f"NOT {membership}"
        predicates = {table: condition for table in _SPAN_TABLES}
    else:
        predicates = {
            table: f"{dimension.column} = {sql_literal(value)}" for table in dimension.tables
        }
    return dataclasses.replace(base, predicates=predicates, exploratory=True)


def _split_sessions(
    con: duckdb.DuckDBPyConnection, base: EvidenceFilter, split: datetime, s_value: int
) -> tuple[list[str], int]:
    """Sessions whose first span is before ``split``, and all sessions in ``base``."""
    with EvidenceView(con, base, min_other_sessions=s_value) as view:
        before = [
            str(row[0])
            for row in view.query(
                f"SELECT session_id FROM sessions WHERE first_span_at < {sql_literal(split)} "
                "ORDER BY session_id"
            )
        ]
        return before, int(view.query("SELECT count(*) FROM sessions")[0][0])


def _aligned(matrix: SessionMatrix, sessions: Sequence[str], criterion: str) -> tuple[Any, Any]:
    num = np.zeros(len(sessions))
    den = np.zeros(len(sessions))
    if criterion in matrix.criteria:
        index = {s: i for i, s in enumerate(sessions)}
        rows = np.fromiter(
            (index[s] for s in matrix.sessions), dtype=np.int64, count=len(matrix.sessions)
        )
        col_num, col_den = matrix.column(criterion)
        num[rows] = col_num
        den[rows] = col_den
    return num, den


def compare(
    con: duckdb.DuckDBPyConnection,
    by: str,
    *,
    groups: tuple[str, str] | None = None,
    split_date: datetime | None = None,
    preregistration_path: str | Path | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    service: str | None = None,
    role: str | None = None,
    prompt_version: str | None = None,
    confidence: float = 0.95,
    include_simulated: bool = False,
) -> Comparison:
    """Compare two groups on every criterion their rows can differ on.

    ``by`` names a dimension (:data:`DIMENSIONS`, or an attribute alias such
    as ``recurscope.trim.compaction.used``); ``groups`` picks the two values
    (default: the two with most sessions). With ``split_date`` the groups are
    ``before`` and ``after`` that instant, on every table, and ``by`` is only
    a label. Resamples and seed come from the pre-registration. Like the
    report, only observed spans count unless ``include_simulated``.
    """
    prereg = load_preregistration(preregistration_path or default_preregistration_path())
    non_observed = {o: n for o, n in origin_counts(con).items() if o != "observed"}
    base = EvidenceFilter(
        since=since,
        until=until,
        service=service,
        role=role,
        prompt_version=prompt_version,
        exploratory=True,
        origins=None if include_simulated or not non_observed else ("observed",),
    )
    notes: list[str] = []
    if non_observed:
        kinds = ", ".join(f"{n:,} {o}" for o, n in sorted(non_observed.items()))
        notes.append(
            f"Includes {kinds} spans (recurscope.origin): a demonstration, not observed evidence."
            if include_simulated
            else f"Observed spans only: the store also holds {kinds} spans, left out "
            "(--include-simulated adds them)."
        )
    if split_date is not None:
        dimension = Dimension("date", "started_at", _SPAN_TABLES)
        label = f"date split at {split_date.isoformat(sep=' ')}"
        group_a, group_b = groups or ("before", "after")
        if {group_a, group_b} != {"before", "after"}:
            raise PipelineError("With --split-date the groups are 'before' and 'after'.")
        others: list[str] = []
        # Each session belongs to one side, by its first span: a session
        # running across the split is not compared with itself.
        on_sessions, total = _split_sessions(con, base, split_date, prereg.min_other_sessions)
        if not total:
            raise _nothing_selected(con, base)
        group_sizes = {"before": len(on_sessions), "after": total - len(on_sessions)}
        empty = [g for g in ("before", "after") if group_sizes[g] == 0]
        if empty:
            raise PipelineError(
                f"No session starts {' or '.join(empty)} {split_date.isoformat(sep=' ')} "
                f"({group_sizes['before']} before, {group_sizes['after']} after): pick a date "
                "inside the data."
            )
        notes.append("Each session is on the side of the split where its first span falls.")
    else:
        dimension = resolve_dimension(by)
        label = dimension.name
        sizes, on_sessions, total = _group_sizes(con, dimension, base, prereg.min_other_sessions)
        if not total:
            raise _nothing_selected(con, base)
        group_sizes = sizes
        if groups is None:
            ranked = sorted(sizes, key=lambda v: (-sizes[v], v))
            if dimension.session_level:
                ranked = ["on", "off"]
            if len(ranked) < 2:
                raise PipelineError(
                    f"Only {len(ranked)} value(s) of {dimension.name} in the data "
                    f"({', '.join(ranked) or 'none'}): nothing to compare."
                )
            group_a, group_b = ranked[0], ranked[1]
        else:
            group_a, group_b = groups
            unknown = [g for g in (group_a, group_b) if g not in sizes]
            if unknown:
                raise PipelineError(
                    f"No sessions with {dimension.name} = {', '.join(unknown)}; present: "
                    f"{', '.join(sorted(sizes)) or 'none'}."
                )
        others = sorted(v for v in sizes if v not in (group_a, group_b))
        if dimension.note:
            notes.append(dimension.note)

    empty_groups = [g for g in (group_a, group_b) if group_sizes.get(g, 1) == 0]
    if empty_groups:
        raise PipelineError(
            f"No sessions in group {' or '.join(empty_groups)} of {label}: nothing to compare "
            f"({', '.join(f'{g} {n}' for g, n in sorted(group_sizes.items()))})."
        )
    criteria = tuple(
        c for c in COMPARED_CRITERIA if set(_CRITERION_TABLES[c]) <= set(dimension.tables)
    )
    skipped = tuple(c for c in COMPARED_CRITERIA if c not in criteria)
    matrices = []
    for value in (group_a, group_b):
        group = _group_filter(base, dimension, value, on_sessions, split_date)
        with EvidenceView(
            con, group, min_other_sessions=prereg.min_other_sessions, clusters=prereg.clusters
        ) as view:
            matrices.append(view.session_matrix(criteria))
    sessions = sorted(set(matrices[0].sessions) | set(matrices[1].sessions))
    columns = [
        (*_aligned(matrices[0], sessions, c), *_aligned(matrices[1], sessions, c)) for c in criteria
    ]
    # One bootstrap for every criterion: the same seed draws the same
    # resamples for each, so this equals a bootstrap per criterion, once.
    all_samples = (
        bootstrap_differences(
            np.column_stack([c[0] for c in columns]),
            np.column_stack([c[1] for c in columns]),
            np.column_stack([c[2] for c in columns]),
            np.column_stack([c[3] for c in columns]),
            resamples=prereg.resamples,
            seed=prereg.seed,
        )
        if columns
        else np.empty((prereg.resamples, 0))
    )
    differences = []
    for j, criterion in enumerate(criteria):
        num_a, den_a, num_b, den_b = columns[j]
        samples = all_samples[:, j]
        estimate_a, estimate_b = ratio_of_sums(num_a, den_a), ratio_of_sums(num_b, den_b)
        difference = None if estimate_a is None or estimate_b is None else estimate_a - estimate_b
        lower, upper, _ = percentile_interval(samples, confidence)
        if difference is None:
            lower = upper = None
        differences.append(
            Difference(
                criterion=criterion,
                estimate_a=estimate_a,
                estimate_b=estimate_b,
                difference=difference,
                lower=lower,
                upper=upper,
                confidence=confidence,
                sessions_a=int(np.count_nonzero(den_a)),
                sessions_b=int(np.count_nonzero(den_b)),
                excludes_zero=bool(
                    lower is not None and upper is not None and (lower > 0 or upper < 0)
                ),
            )
        )
    return Comparison(
        by=label,
        group_a=group_a,
        group_b=group_b,
        # Sessions with rows carrying the group's value (a split date: with rows on that side).
        sessions_a=group_sizes.get(group_a, len(matrices[0].sessions)),
        sessions_b=group_sizes.get(group_b, len(matrices[1].sessions)),
        other_groups=tuple(others),
        differences=tuple(differences),
        skipped=skipped,
        resamples=prereg.resamples,
        seed=prereg.seed,
        notes=tuple(notes),
    )
