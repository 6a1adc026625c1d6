"""The verdict report: Markdown for a design record, JSON for machines.

:func:`build_report` reads the evidence of the pre-registered window (or an
exploratory filtered view), computes the session-bootstrap intervals and the
two verdicts, and returns a :class:`Report`; :meth:`Report.to_markdown` and
:meth:`Report.to_json` render it (``Report.from_json`` reads the JSON back).
The command, ``recurscope report``, lives in :mod:`recurscope.cli.report`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Final

import duckdb

from ..errors import PipelineError
from ..evidence.blind_runs import BlindRuns, load_blind_runs
from ..evidence.clusters import DEFAULT_CLUSTERS, SweepPoint
from ..evidence.views import (
    EvidenceFilter,
    EvidenceView,
    SessionMatrix,
    first_span_at,
    origin_counts,
)
from .document import (
    INTERVAL_NAMES,
    OUTCOME_LABELS,
    PRIMITIVE_LABELS,
    REPORT_SCHEMA,
    AmendmentInfo,
    BoilerplateInfo,
    ClusterRow,
    CriterionRow,
    DetectorInfo,
    KnownError,
    PreregistrationInfo,
    Report,
    SamplingInfo,
    ScopeInfo,
    SweepRow,
    VerdictRow,
    WindowInfo,
)
from .headline import headline_sweep, load_headline_intervals, load_headline_sweep
from .history_needs import history_needs
from .markdown import detector_summary, excluded_note
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
    "INTERVAL_NAMES",
    "OUTCOME_LABELS",
    "PRIMITIVE_LABELS",
    "REPORT_SCHEMA",
    "ClusterRow",
    "CriterionRow",
    "DetectorInfo",
    "Report",
    "build_report",
    "collection_plan",
    "compute_intervals",
    "detector_quality_from_data",
    "detector_summary",
    "excluded_note",
    "known_error",
    "load_detector_quality",
    "measure_detector_quality",
    "parse_when",
]


DEFAULT_DETECTOR_QUALITY: Final = Path("data") / "detector-quality.json"
"""Written by ``recurscope detector-eval --format json > data/detector-quality.json``."""


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
        "history-reading calls whose code shape's near-duplicate cluster recurs in >= S other "
        "sessions / history-reading calls",
        "accessed",
    ),
    "boilerplate_share_exact": (
        "contextview",
        "history-reading calls whose exact code fingerprint recurs in >= S other sessions "
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


def report_filter(
    prereg: Preregistration,
    origins_present: Collection[str],
    *,
    since: datetime | None,
    until: datetime | None,
    service: str | None,
    role: str | None,
    prompt_version: str | None,
    include_simulated: bool,
) -> EvidenceFilter:
    """The evidence a report reads: the pre-registered window, narrowed by the filters.

    Observed spans only, unless ``include_simulated`` adds the simulated ones;
    replayed spans never count toward a verdict (each conversation is replayed
    once per strategy: it would count several times).
    """
    present = set(origins_present) | {"observed"}
    wanted = present - {"replayed"} if include_simulated else {"observed"}
    return EvidenceFilter(
        since=_later(prereg.window.start, since),
        until=_earlier(prereg.window.end, until),
        service=service,
        role=role,
        prompt_version=prompt_version,
        exploratory=any(v is not None for v in (since, until, service, role, prompt_version)),
        origins=None if wanted == present else tuple(sorted(wanted)),
    )


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
        excluded_spans={
            origin: n
            for origin, n in sorted(non_observed.items())
            if origin == "replayed" or not include_simulated
        },
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
    evidence_filter = report_filter(
        prereg,
        non_observed,
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

    with EvidenceView(
        con, evidence_filter, min_other_sessions=prereg.min_other_sessions, clusters=prereg.clusters
    ) as view:
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
            "SELECT *, cluster_id AS fingerprint FROM shape_clusters "
            "ORDER BY is_boilerplate DESC, sessions DESC, calls DESC, cluster_id LIMIT ?",
            [top_clusters],
        )
        # The sweep is kept with the intervals (same key); else computed here.
        sweep = load_headline_sweep(view, prereg) if kept is not None else None
        boilerplate = _boilerplate_info(
            view, prereg, sweep if sweep is not None else headline_sweep(view, prereg)
        )
        needs = history_needs(view)
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
        boilerplate=boilerplate,
        history_needs=needs,
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


def _boilerplate_info(
    view: EvidenceView, prereg: Preregistration, sweep: Sequence[SweepPoint]
) -> BoilerplateInfo:
    """Exact vs clustered boilerplate share in the view, and the sweep over similarities."""
    settings = prereg.clusters or DEFAULT_CLUSTERS
    totals = view.query(
        "SELECT coalesce(sum(boilerplate_calls), 0), coalesce(sum(clustered_boilerplate_calls), 0), "
        "coalesce(sum(history_reading_calls), 0) FROM sessions"
    )[0]
    exact, clustered, reading = (int(v) for v in totals)
    return BoilerplateInfo(
        similarity=prereg.clusters.threshold if prereg.clusters else None,
        linkage="leader" if prereg.clusters else "exact",
        band_rows=settings.band_rows,
        band_count=settings.band_count,
        exact_share=exact / reading if reading else None,
        clustered_share=clustered / reading if reading else None,
        sweep=tuple(
            SweepRow(
                similarity=p.similarity,
                share=p.share,
                boilerplate_calls=p.boilerplate_calls,
                reading_calls=p.reading_calls,
                clusters=p.clusters,
                boilerplate_clusters=p.boilerplate_clusters,
            )
            for p in sweep
        ),
        sketch_scheme=prereg.sketch_scheme,
        known_error=known_error(prereg.sketch_scheme, load_blind_runs()),
    )


def known_error(scheme: str, record: BlindRuns | None) -> KnownError | None:
    """``scheme``'s blind runs pooled into pairwise precision and recall; ``None`` when it has none.

    Pooled over pairs (correct / predicted, correct / true), with the lowest
    and highest of one set beside: a set's pairs share programs, so the
    spread over sets, not a binomial interval, is the honest uncertainty.
    """
    runs = record.of_scheme(scheme) if record is not None and scheme else ()
    if record is None or not runs:
        return None
    correct = sum(r.correct_pairs for r in runs)
    predicted = sum(r.predicted_pairs for r in runs)
    true = sum(r.true_pairs for r in runs)
    precisions = [p for r in runs if (p := r.precision) is not None]
    recalls = [q for r in runs if (q := r.recall) is not None] or [0.0]
    return KnownError(
        scheme=scheme,
        sets=tuple(r.set for r in runs),
        correct_pairs=correct,
        predicted_pairs=predicted,
        true_pairs=true,
        hard_negatives_merged=sum(r.hard_negatives_merged for r in runs),
        precision=correct / predicted if predicted else None,
        recall=correct / true if true else None,
        precision_low=min(precisions, default=None),
        precision_high=max(precisions, default=None),
        recall_low=min(recalls),
        recall_high=max(recalls),
        target_precision=record.target_precision,
        target_recall=record.target_recall,
    )


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
        shapes=int(row.get("shapes") or 1),
        min_similarity=row.get("min_similarity"),
        example_fingerprint=row.get("example_fingerprint"),
    )
