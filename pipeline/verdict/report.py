"""The verdict report: Markdown for a design record, JSON for machines.

:func:`build_report` reads the evidence of the pre-registered window (or an
exploratory filtered view), computes the session-bootstrap intervals and the
two verdicts, and returns a :class:`Report`; :meth:`Report.to_markdown` and
:meth:`Report.to_json` render it (``Report.from_json`` reads the JSON back).
The command, ``recurscope report``, lives in :mod:`recurscope.cli.report`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Final

import duckdb

from ..errors import PipelineError
from ..evidence.inspect import terminal_safe
from ..evidence.models import (
    EvidenceFilter,
    EvidenceView,
    SessionMatrix,
    first_span_at,
    origin_counts,
)
from .headline import load_headline_intervals
from .rule import (
    IntegrityCheck,
    Preregistration,
    Verdict,
    WindowCheck,
    check_integrity,
    check_window,
    decide,
    load_preregistration,
)
from .stats import Interval, exact_interval, session_intervals

__all__ = [
    "DATE_FORMS",
    "DEFAULT_DETECTOR_QUALITY",
    "REPORT_SCHEMA",
    "ClusterRow",
    "CriterionRow",
    "DetectorInfo",
    "Report",
    "build_report",
    "collection_plan",
    "compute_intervals",
    "describe_empty_selection",
    "detector_quality_from_data",
    "detector_summary",
    "explain_empty_report",
    "load_detector_quality",
    "measure_detector_quality",
    "parse_when",
]

REPORT_SCHEMA: Final = "recurscope.report/1"
"""Identifies the JSON layout; bumped when a key changes meaning."""

DEFAULT_DETECTOR_QUALITY: Final = Path("data") / "detector-quality.json"
"""Written by ``recurscope detector-eval --format json > data/detector-quality.json``."""

PRIMITIVE_LABELS: Final = {"contextview": "ContextView", "recurse": "recurse(...)"}
OUTCOME_LABELS: Final = {
    "justified": "justified",
    "not_justified": "not justified",
    "insufficient_evidence": "insufficient evidence",
}

# Criterion -> (primitive, definition, detector metric it depends on or None).
CRITERIA: Final[Mapping[str, tuple[str, str, str | None]]] = {
    "contextview_shaped_share": (
        "contextview",
        "history-reading calls re-implementing grep, partition/group or summarize "
        "/ history-reading calls",
        "contextview_shaped",
    ),
    "boilerplate_share": (
        "contextview",
        "history-reading calls whose fingerprint recurs in >= S other sessions "
        "/ history-reading calls",
        "accessed",
    ),
    "same_role_share": (
        "recurse",
        "same-role delegations / delegations whose same-role status is known",
        None,
    ),
    "goal_overflow_share": (
        "recurse",
        "goal_overflow trims / trims with a goal boundary",
        None,
    ),
    "history_reliance": (
        "contextview",
        "history-reading calls / calls with non-empty history",
        "accessed",
    ),
    "trim_pressure": ("recurse", "plannings that trimmed / plannings", None),
    "boundary_shifts_per_session": ("recurse", "boundary shifts / sessions", None),
    "same_task_reemit_share": (
        "recurse",
        "same_task_reemit shifts / shifts after the first need",
        None,
    ),
}
"""Every fixed criterion the evidence computes; ``op_mix.<op>`` are added per op."""


def _criterion_meta(name: str) -> tuple[str, str, str | None]:
    if name.startswith("op_mix."):
        op = name.removeprefix("op_mix.")
        return (
            "contextview",
            f"history-reading calls using {op} / history-reading calls",
            (f"ops.{op}"),
        )
    return CRITERIA[name]


# ---------------------------------------------------------------------------
# Detector quality


@dataclass(frozen=True, slots=True)
class DetectorInfo:
    """Precision and recall of one detector metric on the labelled corpus.

    ``support`` is the labelled positives (tp + fn). The ``*_lower``/``*_upper``
    bounds are 95% Clopper–Pearson intervals, computed when the counts
    (tp, fp, fn) are known: precision over tp + fp detections, recall over
    tp + fn positives.
    """

    metric: str
    precision: float | None
    recall: float | None
    support: int | None
    precision_lower: float | None = None
    precision_upper: float | None = None
    recall_lower: float | None = None
    recall_upper: float | None = None


def _metric(entry: object, metric: str) -> DetectorInfo | None:
    if not isinstance(entry, Mapping):
        return None

    def number(*keys: str) -> float | None:
        for key in keys:
            value = entry.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
        return None

    precision, recall = number("precision", "p"), number("recall", "r")
    if precision is None and recall is None:
        return None
    support = number("support", "n", "positives", "count")
    tp, fp, fn = number("tp"), number("fp"), number("fn")
    if support is None and tp is not None and fn is not None:
        support = tp + fn  # labelled positives
    p_bounds: tuple[float | None, float | None] = (None, None)
    r_bounds: tuple[float | None, float | None] = (None, None)
    if tp is not None and fp is not None:
        p_bounds = exact_interval(int(tp), int(tp + fp))
    if tp is not None and fn is not None:
        r_bounds = exact_interval(int(tp), int(tp + fn))
    return DetectorInfo(
        metric,
        precision,
        recall,
        None if support is None else int(support),
        precision_lower=p_bounds[0],
        precision_upper=p_bounds[1],
        recall_lower=r_bounds[0],
        recall_upper=r_bounds[1],
    )


_METRIC_ALIASES: Final = {
    "accessed": ("accessed", "history_accessed", "access", "history_access"),
    "contextview_shaped": ("contextview_shaped", "contextview", "contextview_shape"),
}


def load_detector_quality(path: str | Path) -> dict[str, DetectorInfo] | None:
    """Detector precision/recall by metric from ``path``; ``None`` when not measured.

    Reads ``recurscope detector-eval --format json`` output: ``scores.ours.overall``
    maps ``accessed``, ``contextview_shaped`` and ``op:<name>`` to counts
    with ``precision``, ``recall``, ``tp``/``fn``. Simpler layouts work too:
    metrics at the top level or under ``"metrics"``, per-op metrics under
    ``"ops"``. Unreadable files count as not measured: a report never fails
    for want of them.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return detector_quality_from_data(data)


def measure_detector_quality() -> dict[str, DetectorInfo] | None:
    """Measure the detector now on the corpus at hand (the shipped one outside the repo).

    About a second; ``None`` when no corpus can be found. Reports use it when
    no ``detector-quality.json`` was written, so quality is never missing
    just because ``detector-eval`` was not run first.
    """
    from recurscope.instrumentation.analysis.evaluate import (
        CorpusError,
        default_corpus_dir,
        default_reference_dir,
        evaluate,
    )

    try:
        measured = evaluate(default_corpus_dir(), default_reference_dir())
    except CorpusError:
        return None
    return detector_quality_from_data(json.loads(measured.to_json()))


def detector_quality_from_data(data: object) -> dict[str, DetectorInfo] | None:
    """Detector precision/recall by metric from parsed ``detector-eval --format json`` output."""
    if not isinstance(data, Mapping):
        return None
    scores = data.get("scores")
    if isinstance(scores, Mapping):
        ours = scores.get("ours", {})
        scope: Any = ours.get("overall", {}) if isinstance(ours, Mapping) else {}
    else:
        scope = data.get("metrics", data)
    if not isinstance(scope, Mapping):
        return None
    found: dict[str, DetectorInfo] = {}
    for metric, aliases in _METRIC_ALIASES.items():
        for alias in aliases:
            info = _metric(scope.get(alias), metric)
            if info is not None:
                found[metric] = info
                break
    ops = scope.get("ops")
    if isinstance(ops, Mapping):
        for op, entry in ops.items():
            info = _metric(entry, f"ops.{op}")
            if info is not None:
                found[f"ops.{op}"] = info
    for key, entry in scope.items():
        for prefix in ("op:", "ops."):
            if isinstance(key, str) and key.startswith(prefix):
                op = key.removeprefix(prefix)
                info = _metric(entry, f"ops.{op}")
                if info is not None:
                    found.setdefault(f"ops.{op}", info)
    return found or None


# ---------------------------------------------------------------------------
# The report


@dataclass(frozen=True, slots=True)
class CriterionRow:
    """One criterion's estimate and interval, as shown in the report.

    ``kind`` is ``primary`` (has a threshold and takes part in the verdict)
    or ``descriptive``. ``side`` is ``above``/``below``/``straddles``/
    ``no_data`` for primary rows, '' otherwise. ``detector`` is the
    precision/recall of the detection the estimate depends on, ``None`` when
    it depends on none or quality was not measured (``detector_note`` says which).
    """

    name: str
    primitive: str
    kind: str
    definition: str
    estimate: float | None
    lower: float | None
    upper: float | None
    confidence: float
    numerator: float
    denominator: float
    sessions: int
    sessions_total: int
    resamples: int
    threshold: float | None
    side: str
    further_sessions: int | None
    detector: DetectorInfo | None
    detector_note: str


@dataclass(frozen=True, slots=True)
class VerdictRow:
    """The verdict on one primitive; ``caveats`` mark it (exploratory view, sampling...)."""

    primitive: str
    label: str
    outcome: str
    reason: str
    further_sessions: int | None
    criteria: tuple[str, ...]
    caveats: tuple[str, ...]
    plan: str = ""
    """For an undecided verdict: the further sessions and days at today's rate, in words."""


@dataclass(frozen=True, slots=True)
class ClusterRow:
    """A code shape (fingerprint) and how widely it recurs, with an example when captured."""

    fingerprint: str
    calls: int
    sessions: int
    other_sessions: int
    is_boilerplate: bool
    contextview_shaped_calls: int
    first_seen: str | None
    last_seen: str | None
    example_trace_id: str | None
    example_span_id: str | None
    example_language: str | None
    example_code: str | None
    example_ops: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ScopeInfo:
    """What the report covers; ``exploratory`` unless it is the pre-registered window."""

    exploratory: bool
    description: str
    since: str | None
    until: str | None
    service: str | None
    role: str | None
    window_start: str | None
    window_end: str | None
    prompt_version: str | None = None
    include_simulated: bool = False
    """Simulated and replayed spans were asked for (``--include-simulated``)."""
    excluded_spans: dict[str, int] = dataclasses.field(default_factory=dict)
    """Spans per non-observed origin the store holds and this report left out."""


@dataclass(frozen=True, slots=True)
class AmendmentInfo:
    """An amendment of the pre-registration, as every report shows it."""

    version: int
    registered_at: str | None
    changes: str
    rationale: str


@dataclass(frozen=True, slots=True)
class PreregistrationInfo:
    """The pre-registration used, its hash, and whether it was fixed before the data."""

    path: str
    sha256: str
    registered_at: str | None
    modified_at: str
    window_first_span_at: str | None
    registered_after_start: bool
    modified_after_start: bool
    alpha: float
    correction: str
    comparisons: int
    adjusted_confidence: float
    descriptive_confidence: float
    resamples: int
    seed: int
    min_other_sessions: int
    rule: str
    interval: str = "percentile"
    version: int = 1
    amendments: tuple[AmendmentInfo, ...] = ()


@dataclass(frozen=True, slots=True)
class WindowInfo:
    """The evidence window's gates and what the evidence covers."""

    sessions: int
    days: int
    runs: int
    seeds: int
    spans: int
    first_span_at: str | None
    last_span_at: str | None
    min_sessions: int
    min_days: int
    min_runs: int
    min_seeds: int
    met: bool
    missing: tuple[str, ...]
    non_observed_spans: int = 0
    simulated_spans: int = 0
    replayed_spans: int = 0

    @property
    def origin_note(self) -> str:
        """'' for observed evidence, else a sentence saying how much of it is not observed."""
        if not self.non_observed_spans:
            return ""
        kinds = [
            f"{count:,} {name}"
            for name, count in (
                ("simulated", self.simulated_spans),
                ("replayed", self.replayed_spans),
            )
            if count
        ]
        other = self.non_observed_spans - self.simulated_spans - self.replayed_spans
        if other:
            kinds.append(f"{other:,} of another non-observed origin")
        return (
            f"{' and '.join(kinds)} of {self.spans:,} spans were not observed "
            "(recurscope.origin): a demonstration, not evidence about a real runtime."
        )


@dataclass(frozen=True, slots=True)
class SamplingInfo:
    """Whether spans were lost before the evidence, and how that marks the verdict."""

    sampled: bool
    marked_spans: int
    min_probability: float | None
    dropped_spans: int
    quarantined_spans: int
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Report:
    """Everything the Markdown and JSON renderings show; JSON-able values only."""

    schema: str
    generated_at: str
    database: str | None
    scope: ScopeInfo
    preregistration: PreregistrationInfo
    window: WindowInfo
    verdicts: tuple[VerdictRow, ...]
    primary: tuple[CriterionRow, ...]
    descriptive: tuple[CriterionRow, ...]
    clusters: tuple[ClusterRow, ...]
    sampling: SamplingInfo
    detector_quality_source: str | None
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data (stable keys, in declaration order)."""
        return _to_plain(self)  # type: ignore[no-any-return]

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON; :meth:`from_json` reads it back to an equal report."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """Rebuild a report from :meth:`to_dict` output."""
        return typing.cast(Report, _from_plain(cls, data))

    @classmethod
    def from_json(cls, text: str) -> Report:
        """Rebuild a report from :meth:`to_json` output."""
        return cls.from_dict(json.loads(text))

    def to_markdown(self) -> str:
        """The report as Markdown, pasteable into a design record."""
        return _render_markdown(self)


def _to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_to_plain(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _from_plain(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _from_plain(options[0], value)
    if origin is tuple:
        (item_hint, *_rest) = typing.get_args(hint)
        return tuple(_from_plain(item_hint, item) for item in value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return hint(
            **{
                f.name: _from_plain(hints[f.name], value.get(f.name))
                for f in dataclasses.fields(hint)
                # A report written before a field existed keeps the field's default.
                if f.name in value
                or (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
            }
        )
    if hint is float and isinstance(value, int):
        return float(value)
    return value


def _iso(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


_AGE: Final = re.compile(r"(\d+)\s*([mhdw])")
_AGE_UNITS: Final = {
    "m": timedelta(minutes=1),
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
}
DATE_FORMS: Final = "2026-03-01, 2026-03-01T09:30:00Z, or an age: 30d, 12h, 90m, 2w"
"""The date grammar in one line, for messages and help texts."""


def parse_when(text: str, *, end: bool = False, now: datetime | None = None) -> datetime:
    """A date flag's value as a naive UTC datetime — the one date grammar of the command line.

    Accepts an ISO date (``2026-03-01``: midnight UTC), an ISO datetime with
    or without a zone (``2026-03-01T09:30:00Z``, ``2026-03-01 10:30+01:00``;
    naive means UTC), or an age — a whole number of minutes, hours, days or
    weeks (``90m``, ``12h``, ``30d``, ``2w``) meaning ``now`` minus that.
    With ``end=True`` a bare date means the end of that day (the exclusive
    bound at the next midnight), so ``--until 2026-03-07`` includes March 7;
    datetimes and ages are exact instants either way. ``now`` (aware, or
    naive UTC) defaults to the current time. Raises :class:`PipelineError`
    naming the accepted forms.
    """
    stripped = text.strip()
    problem = f"not a date: {text!r} (use {DATE_FORMS})"
    age = _AGE.fullmatch(stripped.lower())
    if age:
        reference = now or datetime.now(UTC).replace(microsecond=0)
        if reference.tzinfo is not None:
            reference = reference.astimezone(UTC).replace(tzinfo=None)
        try:
            return reference - int(age.group(1)) * _AGE_UNITS[age.group(2)]
        except OverflowError:
            raise PipelineError(f"out of range: {text!r} reaches back before year 1") from None
    try:
        day = date.fromisoformat(stripped)
    except ValueError:
        day = None
    if day is not None:
        start = datetime.combine(day, time())
        if not end:
            return start
        try:
            return start + timedelta(days=1)
        except OverflowError:
            raise PipelineError(f"out of range: {text!r} ends after year 9999") from None
    try:
        parsed = datetime.fromisoformat(stripped.replace("z", "Z"))
    except ValueError:
        raise PipelineError(problem) from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


def _later(a: datetime | None, b: datetime | None) -> datetime | None:
    return a if b is None else b if a is None else max(a, b)


def _earlier(a: datetime | None, b: datetime | None) -> datetime | None:
    return a if b is None else b if a is None else min(a, b)


def _ingest_losses(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """(spans the exporters reported dropped, spans quarantined) from the store's ingest log."""
    cur = con.cursor()
    try:
        columns = [
            str(row[0])
            for row in cur.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() "
                "AND schema_name = current_schema() AND table_name = 'ingest_log'"
            ).fetchall()
        ]
        if not columns:
            return 0, 0
        drop_columns = [c for c in columns if "drop" in c.lower()]
        dropped = 0
        if drop_columns:
            total = " + ".join(f'coalesce(sum("{c}"), 0)' for c in drop_columns)
            rows = cur.execute(f"SELECT {total} FROM ingest_log").fetchall()
            dropped = int(rows[0][0]) if rows and rows[0][0] is not None else 0
        quarantined = 0
        if "RowsQuarantined" in columns:
            rows = cur.execute(
                "SELECT coalesce(sum(RowsQuarantined), 0) FROM ingest_log"
            ).fetchall()
            quarantined = int(rows[0][0]) if rows and rows[0][0] is not None else 0
        return dropped, quarantined
    except duckdb.Error:
        return 0, 0
    finally:
        cur.close()


def _row(
    name: str,
    kind: str,
    interval: Interval,
    prereg: Preregistration,
    detector: Mapping[str, DetectorInfo] | None,
    *,
    threshold: float | None = None,
    side: str = "",
    further: int | None = None,
) -> CriterionRow:
    primitive, definition, metric = _criterion_meta(name)
    spec = next((c for c in prereg.criteria if c.name == name), None)
    if spec is not None and spec.definition:
        definition = spec.definition
    info = detector.get(metric) if (detector is not None and metric is not None) else None
    if metric is None:
        note = "does not depend on detection"
    elif detector is None:
        note = "detector quality not measured"
    elif info is None:
        note = f"detector quality not measured for {metric}"
    else:
        note = ""
    return CriterionRow(
        name=name,
        primitive=primitive,
        kind=kind,
        definition=definition,
        estimate=interval.estimate,
        lower=interval.lower,
        upper=interval.upper,
        confidence=interval.confidence,
        numerator=interval.numerator,
        denominator=interval.denominator,
        sessions=interval.sessions,
        sessions_total=interval.sessions_total,
        resamples=interval.resamples,
        threshold=threshold,
        side=side,
        further_sessions=further,
        detector=info,
        detector_note=note,
    )


def compute_intervals(prereg: Preregistration, matrix: SessionMatrix) -> dict[str, Interval]:
    """Every criterion's session-bootstrap interval: primary ones at the adjusted level."""
    primary = {c.name for c in prereg.criteria}
    confidence = {
        name: prereg.adjusted_confidence if name in primary else prereg.descriptive_confidence
        for name in matrix.criteria
    }
    return session_intervals(
        matrix.numerators,
        matrix.denominators,
        matrix.criteria,
        confidence,
        resamples=prereg.resamples,
        seed=prereg.seed,
        method=prereg.interval,
    )


def _report_filter(
    prereg: Preregistration,
    has_non_observed: bool,
    *,
    since: datetime | None,
    until: datetime | None,
    service: str | None,
    role: str | None,
    prompt_version: str | None,
    include_simulated: bool,
) -> EvidenceFilter:
    """The evidence a report reads: the pre-registered window, narrowed by the filters."""
    return EvidenceFilter(
        since=_later(prereg.window.start, since),
        until=_earlier(prereg.window.end, until),
        service=service,
        role=role,
        prompt_version=prompt_version,
        exploratory=any(v is not None for v in (since, until, service, role, prompt_version)),
        origins=None if include_simulated or not has_non_observed else ("observed",),
    )


INTERVAL_NAMES: Final = {
    "percentile": "percentile",
    "bca": "bias-corrected and accelerated (BCa)",
    "studentized": "studentized (bootstrap-t)",
}
"""How the report names each ``[bootstrap] interval`` method."""


def _sampling_info(con: duckdb.DuckDBPyConnection, coverage: Mapping[str, Any]) -> SamplingInfo:
    """What was lost before the evidence: head sampling, exporter drops, quarantine."""
    dropped, quarantined = _ingest_losses(con)
    marked = int(coverage.get("sampling_marked_spans") or 0)
    min_probability = coverage.get("min_sampling_probability")
    sampled = marked > 0 and (min_probability is None or float(min_probability) < 1)
    notes: list[str] = []
    if sampled:
        probability = (
            f" (lowest sampling probability {float(min_probability):g})"
            if min_probability is not None
            else ""
        )
        notes.append(
            f"{marked:,} spans carry head-sampling markers{probability}: whole traces were "
            "dropped, so sessions may be incomplete and delegation chains broken."
        )
    if dropped:
        notes.append(f"The ingest log reports {dropped:,} spans dropped by exporters.")
    if quarantined:
        notes.append(
            f"{quarantined:,} records were quarantined at ingest and are not in the evidence."
        )
    return SamplingInfo(
        sampled=sampled,
        marked_spans=marked,
        min_probability=None if min_probability is None else float(min_probability),
        dropped_spans=dropped,
        quarantined_spans=quarantined,
        notes=tuple(notes),
    )


def _preregistration_info(
    prereg: Preregistration, integrity: IntegrityCheck, window_first: datetime | None
) -> PreregistrationInfo:
    """The pre-registration as the report states it: identity, method, amendments, integrity."""
    return PreregistrationInfo(
        path=prereg.path,
        sha256=prereg.sha256,
        registered_at=_iso(prereg.registered_at),
        modified_at=_iso(prereg.modified_at) or "",
        window_first_span_at=_iso(window_first),
        registered_after_start=integrity.registered_after_start,
        modified_after_start=integrity.modified_after_start,
        alpha=prereg.alpha,
        correction=prereg.correction,
        comparisons=prereg.comparisons,
        adjusted_confidence=prereg.adjusted_confidence,
        descriptive_confidence=prereg.descriptive_confidence,
        resamples=prereg.resamples,
        seed=prereg.seed,
        min_other_sessions=prereg.min_other_sessions,
        rule=prereg.rule,
        interval=prereg.interval,
        version=prereg.version,
        amendments=tuple(
            AmendmentInfo(
                version=a.version,
                registered_at=_iso(a.registered_at),
                changes=a.changes,
                rationale=a.rationale,
            )
            for a in prereg.amendments
        ),
    )


def _window_info(
    prereg: Preregistration, window: WindowCheck, coverage: Mapping[str, Any]
) -> WindowInfo:
    """The evidence window against the pre-registered gates."""
    return WindowInfo(
        sessions=window.sessions,
        days=window.days,
        runs=window.runs,
        seeds=window.seeds,
        spans=int(coverage.get("spans") or 0),
        first_span_at=_iso(window.first_span_at),
        last_span_at=_iso(window.last_span_at),
        min_sessions=prereg.window.min_sessions,
        min_days=prereg.window.min_days,
        min_runs=prereg.window.min_runs,
        min_seeds=prereg.window.min_seeds,
        met=window.met,
        missing=window.missing,
        non_observed_spans=int(coverage.get("non_observed_spans") or 0),
        simulated_spans=int(coverage.get("simulated_spans") or 0),
        replayed_spans=int(coverage.get("replayed_spans") or 0),
    )


def _criterion_rows(
    prereg: Preregistration,
    verdicts: Sequence[Verdict],
    intervals: Mapping[str, Interval],
    detector: Mapping[str, DetectorInfo] | None,
) -> tuple[tuple[CriterionRow, ...], tuple[CriterionRow, ...]]:
    """The primary rows (with their decisions) in pre-registration order, then the descriptive ones."""
    primary_names = [c.name for c in prereg.criteria]
    decision_by_name = {d.name: d for v in verdicts for d in v.criteria}
    primary = tuple(
        _row(
            name,
            "primary",
            decision_by_name[name].interval,
            prereg,
            detector,
            threshold=decision_by_name[name].threshold,
            side=decision_by_name[name].side,
            further=decision_by_name[name].further_sessions,
        )
        for name in primary_names
    )
    descriptive_names = [n for n in CRITERIA if n not in primary_names and n in intervals]
    descriptive_names += sorted(
        n for n in intervals if n.startswith("op_mix.") and intervals[n].numerator > 0
    )
    descriptive = tuple(
        _row(name, "descriptive", intervals[name], prereg, detector) for name in descriptive_names
    )
    return primary, descriptive


def _scope_info(
    exploratory: bool,
    description: str,
    prereg: Preregistration,
    *,
    since: datetime | None,
    until: datetime | None,
    service: str | None,
    role: str | None,
    prompt_version: str | None,
    include_simulated: bool,
    non_observed: Mapping[str, int],
) -> ScopeInfo:
    """What the report covers: the window or an exploratory filter, and what it left out."""
    return ScopeInfo(
        exploratory=exploratory,
        description=description or "all data in the pre-registered window",
        since=_iso(since),
        until=_iso(until),
        service=service,
        role=role,
        window_start=_iso(prereg.window.start),
        prompt_version=prompt_version,
        window_end=_iso(prereg.window.end),
        include_simulated=include_simulated,
        excluded_spans={} if include_simulated else dict(sorted(non_observed.items())),
    )


def build_report(
    con: duckdb.DuckDBPyConnection,
    preregistration_path: str | Path,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    service: str | None = None,
    role: str | None = None,
    prompt_version: str | None = None,
    detector_quality_path: str | Path | None = DEFAULT_DETECTOR_QUALITY,
    detector_quality: Mapping[str, DetectorInfo] | None = None,
    detector_quality_source: str | None = None,
    top_clusters: int = 10,
    database: str | None = None,
    include_simulated: bool = False,
) -> Report:
    """The verdict report for the pre-registered window, or an exploratory view of it.

    The evidence is observed spans only unless ``include_simulated``: a store
    that also holds simulated or replayed spans (``recurscope.origin``) gets
    a verdict on its observed spans, and the report says what it left out.

    Any of ``since``/``until``/``service``/``role``/``prompt_version`` makes the view
    *exploratory*: verdicts are still computed, but labelled as such; only
    the pre-registered window gives the headline. Works on a read-only
    connection (everything computed lives in a private cursor).
    """
    prereg = load_preregistration(preregistration_path)
    exploratory = any(v is not None for v in (since, until, service, role, prompt_version))
    window_start, window_end = prereg.window.start, prereg.window.end
    non_observed = {o: n for o, n in origin_counts(con).items() if o != "observed"}
    evidence_filter = _report_filter(
        prereg,
        bool(non_observed),
        since=since,
        until=until,
        service=service,
        role=role,
        prompt_version=prompt_version,
        include_simulated=include_simulated,
    )
    detector = (
        detector_quality
        if detector_quality is not None
        else load_detector_quality(detector_quality_path)
        if detector_quality_path is not None
        else None
    )
    primary_names = [c.name for c in prereg.criteria]
    notes: list[str] = []

    with EvidenceView(con, evidence_filter, min_other_sessions=prereg.min_other_sessions) as view:
        if view.stale_reason:
            notes.append(
                f"Evidence computed from raw spans for this report: {view.stale_reason} "
                "(run a refresh to store it)."
            )
        coverage = view.records("SELECT * FROM coverage")[0]
        # The writers keep the headline's intervals with the evidence
        # (pipeline/verdict/headline.py): reading them skips the bootstrap.
        kept = load_headline_intervals(view, prereg) if view.stored_session_models else None
        intervals = kept if kept is not None else compute_intervals(prereg, view.session_matrix())
        clusters = view.records(
            "SELECT * FROM code_clusters ORDER BY is_boilerplate DESC, sessions DESC, "
            "calls DESC, fingerprint LIMIT ?",
            [top_clusters],
        )
    missing = [
        name
        for name in primary_names
        if name not in intervals and int(coverage.get("sessions") or 0)
    ]
    if missing:
        raise PipelineError(
            f"The pre-registration names {', '.join(missing)}, which the evidence does not "
            "compute; see docs/verdict.md for the criteria."
        )
    for name in primary_names:
        intervals.setdefault(
            name,
            Interval(None, None, None, prereg.adjusted_confidence, 0.0, 0.0, 0, 0, 0),
        )
    window = check_window(prereg, coverage)
    verdicts = decide(prereg, intervals, window)

    # The pre-registration must predate the *pre-registered* window's first
    # span, whatever narrower view this report shows.
    window_first = (
        first_span_at(con, window_start, window_end) if exploratory else coverage["first_span_at"]
    )
    integrity = check_integrity(prereg, window_first)

    sampling = _sampling_info(con, coverage)

    caveats: list[str] = []
    if exploratory:
        caveats.append("exploratory view, not the pre-registered headline")
    if sampling.sampled or sampling.dropped_spans:
        caveats.append("spans were sampled or dropped before the evidence")
    if integrity.flagged:
        caveats.append("pre-registration changed after the window began")
    if int(coverage.get("non_observed_spans") or 0):
        caveats.append("computed from simulated or replayed spans: a demonstration")

    primary_rows, descriptive_rows = _criterion_rows(prereg, verdicts, intervals, detector)
    return Report(
        schema=REPORT_SCHEMA,
        generated_at=datetime.now(UTC).replace(microsecond=0).isoformat(),
        database=database,
        scope=_scope_info(
            exploratory,
            evidence_filter.describe(),
            prereg,
            since=since,
            until=until,
            service=service,
            role=role,
            prompt_version=prompt_version,
            include_simulated=include_simulated,
            non_observed=non_observed,
        ),
        preregistration=_preregistration_info(prereg, integrity, window_first),
        window=_window_info(prereg, window, coverage),
        verdicts=tuple(
            _verdict_row(
                v,
                [*caveats, *_zero_width_caveats(v)],
                collection_plan(v, prereg, window.sessions, window.days, window.runs),
            )
            for v in verdicts
        ),
        primary=primary_rows,
        descriptive=descriptive_rows,
        clusters=tuple(_cluster_row(c) for c in clusters),
        sampling=sampling,
        detector_quality_source=(
            detector_quality_source
            if detector_quality is not None
            else str(detector_quality_path)
            if detector is not None and detector_quality_path
            else None
        ),
        notes=tuple(notes),
    )


# --------------------------------------------------------------------------
# Why a selection is empty.

_SELECTION_ROWS: Final = " UNION ALL ".join(
    f"SELECT session_id, started_at, service_name, role, prompt_version, origin FROM {table} "
    "WHERE session_id IS NOT NULL"
    for table in ("calls", "delegations", "trims", "boundary_shifts")
)
# Every row a filter can keep, with the columns EvidenceFilter.condition tests.

_MAX_NAMED: Final = 10
# Values named in a sentence; the rest are counted.

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
    non_observed = any(o != "observed" for o in origin_counts(con))
    evidence_filter = _report_filter(
        prereg,
        non_observed,
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


def _zero_width_caveats(verdict: Verdict) -> list[str]:
    """A caveat per primary criterion whose interval has no width (sessions that do not vary)."""
    return [
        f"{d.name} has a zero-width interval: its sessions do not vary, so the bootstrap "
        "cannot measure its uncertainty"
        for d in verdict.criteria
        if d.interval.estimate is not None
        and d.interval.lower is not None
        and d.interval.lower == d.interval.upper
    ]


def _verdict_row(verdict: Verdict, caveats: Sequence[str], plan: str = "") -> VerdictRow:
    return VerdictRow(
        primitive=verdict.primitive,
        label=PRIMITIVE_LABELS.get(verdict.primitive, verdict.primitive),
        outcome=verdict.outcome,
        reason=verdict.reason,
        further_sessions=verdict.further_sessions,
        criteria=tuple(d.name for d in verdict.criteria),
        caveats=tuple(caveats),
        plan=plan,
    )


def collection_plan(
    verdict: Verdict, prereg: Preregistration, sessions: int, days: int, runs: int
) -> str:
    """'' when decided; else how many more sessions and days at the pilot's rate would decide it.

    Sessions needed are the larger of the window's shortfall and the
    verdict's projected further sessions; days follow from the sessions seen
    per distinct day so far, and never fall below the days gate's shortfall.
    A rough plan from a pilot, as docs/verdict.md says, not a power analysis.
    """
    if verdict.outcome != "insufficient_evidence":
        return ""
    need = max(prereg.window.min_sessions - sessions, 0)
    if verdict.further_sessions is not None:
        need = max(need, verdict.further_sessions)
    more_days = max(prereg.window.min_days - days, 0)
    if need == 0 and more_days == 0:
        return ""
    parts = []
    if sessions and days:
        rate = sessions / days
        more_days = max(more_days, math.ceil(need / rate))
        parts.append(
            f"about {need:,} more sessions over about {more_days:,} more days at today's rate "
            f"({rate:,.1f} sessions a day)"
        )
    else:
        parts.append(f"about {need:,} more sessions")
    if runs < prereg.window.min_runs:
        parts.append(f"from at least {prereg.window.min_runs - runs:,} more runs")
    return ", ".join(parts)


def _cluster_row(row: Mapping[str, Any]) -> ClusterRow:
    return ClusterRow(
        fingerprint=str(row["fingerprint"]),
        calls=int(row["calls"]),
        sessions=int(row["sessions"]),
        other_sessions=int(row["other_sessions"]),
        is_boilerplate=bool(row["is_boilerplate"]),
        contextview_shaped_calls=int(row["contextview_shaped_calls"] or 0),
        first_seen=_iso(row["first_seen"]),
        last_seen=_iso(row["last_seen"]),
        example_trace_id=row["example_trace_id"],
        example_span_id=row["example_span_id"],
        example_language=row["example_language"],
        example_code=row["example_code"],
        example_ops=tuple(row["example_ops"] or ()),
    )


# ---------------------------------------------------------------------------
# Markdown


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _num(value: float | None, measure_share: bool) -> str:
    if value is None:
        return "–"
    return f"{value:.1%}" if measure_share else f"{value:.2f}"


def _interval_text(row: CriterionRow) -> str:
    share = row.name != "boundary_shifts_per_session"
    if row.lower is None or row.upper is None:
        return "–"
    return f"[{_num(row.lower, share)}, {_num(row.upper, share)}]"


def _detector_text(row: CriterionRow) -> str:
    if row.detector is None:
        return "–" if row.detector_note == "does not depend on detection" else row.detector_note
    return detector_summary(row.detector)


def detector_summary(info: DetectorInfo) -> str:
    """``P 1.00 [0.90, 1.00] · R 0.95 [0.83, 0.99] · n = 36`` (95% Clopper–Pearson)."""

    def one(name: str, value: float | None, lower: float | None, upper: float | None) -> str:
        if value is None:
            return f"{name} –"
        bounds = f" [{lower:.2f}, {upper:.2f}]" if lower is not None and upper is not None else ""
        return f"{name} {value:.2f}{bounds}"

    parts = [
        one("P", info.precision, info.precision_lower, info.precision_upper),
        one("R", info.recall, info.recall_lower, info.recall_upper),
    ]
    if info.support is not None:
        parts.append(f"n = {info.support}")
    return " · ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def excluded_note(excluded: Mapping[str, int]) -> str:
    """What a report on observed spans left out, and how to include it."""
    kinds = ", ".join(f"{n:,} {origin}" for origin, n in sorted(excluded.items()))
    return (
        f"this store also holds {kinds} spans (`recurscope.origin`), left out of this "
        "verdict. `--include-simulated` computes it with them, as a demonstration."
    )


def _render_markdown(report: Report) -> str:
    """The report as Markdown: one function per section, in reading order."""
    sections = (
        _md_header,
        _md_verdicts,
        _md_primary,
        _md_descriptive,
        _md_window,
        _md_clusters,
        _md_method,
    )
    return "\n".join(line for section in sections for line in section(report)) + "\n"


def _md_header(report: Report) -> list[str]:
    """The title, provenance, and the banners (amendment, origin, exploratory)."""
    pre = report.preregistration
    lines: list[str] = []
    title = "recurscope verdict"
    if report.scope.exploratory:
        title += " (exploratory view)"
    if report.scope.include_simulated and report.window.origin_note:
        title += " — including simulated spans (a demonstration)"
    lines += [f"# {title}", ""]
    scope = report.scope.description
    lines.append(
        f"Generated {report.generated_at} from {report.database or 'the evidence database'}; "
        f"scope: {scope}. Pre-registration `{pre.path}`, SHA-256 `{pre.sha256}`."
    )
    if pre.amendments:
        amended = "; ".join(
            f"v{a.version} ({(a.registered_at or 'undated')[:10]}): {a.changes}"
            for a in pre.amendments
        )
        lines += [
            "",
            f"> **Amended pre-registration (version {pre.version}):** {_cell(amended)}. "
            "Rationale under Method.",
        ]
    if report.window.origin_note:
        lines += ["", f"> **Not observed evidence:** {report.window.origin_note}"]
    if report.scope.excluded_spans:
        lines += ["", f"> **Observed spans only:** {excluded_note(report.scope.excluded_spans)}"]
    if report.scope.exploratory:
        lines += [
            "",
            "> **Exploratory:** this view is filtered beyond the pre-registered window; "
            "only the pre-registered window gives the headline verdict.",
        ]
    return lines


def _md_verdicts(report: Report) -> list[str]:
    """One row per primitive: the verdict and why."""
    lines: list[str] = []
    lines += ["", "## Verdict", "", "| primitive | verdict | why |", "| --- | --- | --- |"]
    for verdict in report.verdicts:
        outcome = f"**{OUTCOME_LABELS.get(verdict.outcome, verdict.outcome)}**"
        if verdict.caveats:
            outcome += " ⚠ " + "; ".join(verdict.caveats)
        why = verdict.reason + (f" Plan: {verdict.plan}." if verdict.plan else "")
        lines.append(f"| {verdict.label} | {_cell(outcome)} | {_cell(why)} |")
    return lines


def _md_primary(report: Report) -> list[str]:
    """The pre-registered criteria with their Bonferroni intervals, then their definitions."""
    pre = report.preregistration
    lines: list[str] = []
    lines += [
        "",
        f"## Primary criteria ({pre.adjusted_confidence:.2%} intervals: Bonferroni, "
        f"alpha {pre.alpha:g} over m = {pre.comparisons})",
        "",
        "| criterion | primitive | estimate | interval | threshold | position | sessions "
        "| numerator / denominator | detector P/R |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    positions = {
        "above": "above threshold",
        "below": "below threshold",
        "straddles": "straddles",
        "no_data": "no data",
    }
    for row in report.primary:
        position = positions.get(row.side, row.side)
        if row.side == "straddles" and row.further_sessions:
            position += f" (~{row.further_sessions:,} more sessions)"
        lines.append(
            f"| `{row.name}` | {PRIMITIVE_LABELS.get(row.primitive, row.primitive)} "
            f"| {_pct(row.estimate)} | {_interval_text(row)} | {_pct(row.threshold)} "
            f"| {position} | {row.sessions:,} of {row.sessions_total:,} "
            f"| {row.numerator:,.0f} / {row.denominator:,.0f} | {_cell(_detector_text(row))} |"
        )
    lines += [""]
    for row in report.primary:
        lines.append(f"- `{row.name}`: {row.definition}")
    return lines


def _md_descriptive(report: Report) -> list[str]:
    """The descriptive measures (no decision)."""
    pre = report.preregistration
    lines: list[str] = []
    lines += [
        "",
        f"## Descriptive measures ({pre.descriptive_confidence:.0%} intervals, no decision)",
        "",
        "| measure | estimate | interval | sessions | numerator / denominator | detector P/R |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in report.descriptive:
        share = row.name != "boundary_shifts_per_session"
        lines.append(
            f"| `{row.name}` | {_num(row.estimate, share)} | {_interval_text(row)} "
            f"| {row.sessions:,} of {row.sessions_total:,} "
            f"| {row.numerator:,.0f} / {row.denominator:,.0f} | {_cell(_detector_text(row))} |"
        )
    return lines


def _md_window(report: Report) -> list[str]:
    """What the evidence covers, against the pre-registered gates."""
    lines: list[str] = []
    window = report.window
    lines += ["", "## Evidence window", ""]
    seeds = f"{window.seeds} (min {window.min_seeds})" if window.seeds else "not recorded"
    lines += [
        f"- sessions: {window.sessions:,} (min {window.min_sessions:,})",
        f"- distinct days: {window.days} (min {window.min_days})",
        f"- runs (`service.instance.id`): {window.runs} (min {window.min_runs})",
        f"- seeds (`recurscope.seed`): {seeds}",
        f"- spans: {window.spans:,}, first {window.first_span_at or '–'}, "
        f"last {window.last_span_at or '–'}",
        "- gates: " + ("met" if window.met else "**not met** — needs " + "; ".join(window.missing)),
    ]
    return lines


def _md_clusters(report: Report) -> list[str]:
    """The top code shapes, and up to five examples of their code."""
    pre = report.preregistration
    lines: list[str] = []
    lines += ["", "## Code shapes (top clusters)", ""]
    if not report.clusters:
        lines.append("No history-reading code was fingerprinted in this scope.")
    else:
        lines += [
            f"Boilerplate = recurs in >= {pre.min_other_sessions} other sessions.",
            "",
            "| fingerprint | sessions | calls | boilerplate | ContextView-shaped calls | ops |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for cluster in report.clusters:
            lines.append(
                f"| `{cluster.fingerprint}` | {cluster.sessions:,} | {cluster.calls:,} "
                f"| {'yes' if cluster.is_boilerplate else 'no'} "
                f"| {cluster.contextview_shaped_calls:,} | {', '.join(cluster.example_ops)} |"
            )
        # At most five examples, each code text once: clusters often share it.
        examples: list[ClusterRow] = []
        for cluster in report.clusters:
            texts = {e.example_code for e in examples}
            if cluster.example_code and cluster.example_code not in texts and len(examples) < 5:
                examples.append(cluster)
        if examples:
            lines += ["", "Examples (content capture was on for these calls):"]
            for cluster in examples:
                fence = "```"
                lines += [
                    "",
                    f"`{cluster.fingerprint}` (span `{cluster.example_span_id}`):",
                    "",
                    f"{fence}{cluster.example_language or ''}",
                    (cluster.example_code or "").replace(fence, "` ` `"),
                    fence,
                ]
        else:
            lines += ["", "No example code: content capture was off for these calls."]
    return lines


def _md_method(report: Report) -> list[str]:
    """How the numbers were made: unit, intervals, rule, pre-registration, sampling."""
    pre = report.preregistration
    lines: list[str] = []
    lines += ["", "## Method", ""]
    integrity = "fixed before the window's first span"
    flags = []
    if pre.registered_after_start:
        flags.append(f"registered_at {pre.registered_at} is after the window's first span")
    if pre.modified_after_start:
        flags.append(f"the file was modified ({pre.modified_at}) after the window's first span")
    if flags:
        integrity = "**flagged**: " + "; ".join(flags)
    lines += [
        "- Unit of analysis: the session (`gen_ai.conversation.id`). Every estimate is a ratio "
        "of per-session sums (sum of numerators / sum of denominators), never a mean of "
        "per-session ratios and never an interval over calls.",
        f"- Intervals: session-level bootstrap, {pre.resamples:,} resamples of sessions with "
        f"replacement, seed {pre.seed}, {INTERVAL_NAMES.get(pre.interval, pre.interval)} "
        "intervals (coverage measured in docs/verdict.md).",
        f"- Multiple comparisons: Bonferroni over all {pre.comparisons} primary criteria of "
        f"both primitives (alpha {pre.alpha:g}, each interval at {pre.adjusted_confidence:.2%}).",
        f"- Decision rule: {pre.rule}",
        f"- Pre-registration: `{pre.path}`, SHA-256 `{pre.sha256}`, registered "
        f"{pre.registered_at or 'unknown'} (version {pre.version}), window first span "
        f"{pre.window_first_span_at or '–'}: {integrity}.",
        *(
            f"- **Amendment {a.version}** ({a.registered_at or 'undated'}): {a.changes}. "
            f"Why: {a.rationale}"
            for a in pre.amendments
        ),
        "- Further sessions for an undecided criterion assume the estimate holds and the "
        "interval narrows like 1/sqrt(n) (docs/verdict.md).",
    ]
    if report.sampling.notes:
        lines += [f"- Sampling: {note}" for note in report.sampling.notes]
    else:
        lines.append("- Sampling: no head-sampling markers or reported drops.")
    lines.append(
        f"- Detector quality: from `{report.detector_quality_source}`."
        if report.detector_quality_source
        else "- Detector quality: not measured (run `recurscope detector-eval --format json > "
        "data/detector-quality.json`)."
    )
    lines += [f"- Note: {note}" for note in report.notes]
    return lines


# ---------------------------------------------------------------------------
# CLI
