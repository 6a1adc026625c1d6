"""The verdict report as data: :class:`Report` and its parts, with their JSON round trip."""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

REPORT_SCHEMA: Final = "recurscope.report/1"
"""Identifies the JSON layout; bumped when a key changes meaning."""


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
    shapes: int = 1
    """Distinct exact fingerprints in the near-duplicate cluster (``fingerprint`` is its id)."""
    min_similarity: float | None = None
    """The least similar member's estimated similarity to the cluster's leader."""
    example_fingerprint: str | None = None


@dataclass(frozen=True, slots=True)
class SweepRow:
    """The boilerplate share at one clustering similarity (``None``: exact fingerprints)."""

    similarity: float | None
    share: float | None
    boilerplate_calls: int
    reading_calls: int
    clusters: int
    boilerplate_clusters: int


@dataclass(frozen=True, slots=True)
class KnownError:
    """The clustering's measured error: its sketch scheme's blind runs, pooled.

    From ``data/clone-families/blind-runs.toml``: sets of clone families
    written without seeing the clusterer, each run once. Pairwise precision
    and recall over all of them, and the lowest and highest of one set.
    """

    scheme: str
    sets: tuple[str, ...]
    correct_pairs: int
    predicted_pairs: int
    true_pairs: int
    hard_negatives_merged: int
    precision: float | None
    recall: float | None
    precision_low: float | None
    precision_high: float | None
    recall_low: float
    recall_high: float
    target_precision: float
    target_recall: float

    @property
    def meets_targets(self) -> bool:
        return (
            self.precision is not None
            and self.recall is not None
            and self.precision >= self.target_precision
            and self.recall >= self.target_recall
        )


@dataclass(frozen=True, slots=True)
class BoilerplateInfo:
    """How code shapes were clustered, and the boilerplate share exact, clustered and swept."""

    similarity: float | None
    linkage: str
    band_rows: int
    band_count: int
    exact_share: float | None
    clustered_share: float | None
    sweep: tuple[SweepRow, ...]
    sketch_scheme: str = ""
    """The sketch scheme the pre-registration names (empty before version 6)."""
    known_error: KnownError | None = None
    """That scheme's blind runs, pooled (``None``: it was never run blind)."""


@dataclass(frozen=True, slots=True)
class FieldReadRow:
    """One record field: how many history-reading calls (with fields known) read it."""

    field: str
    v1: bool
    """A field of the V1 record (or a key of its ``outcome_summary``)."""
    calls: int
    share: float | None
    """``calls`` / history-reading calls whose fields are known."""
    sessions: int


@dataclass(frozen=True, slots=True)
class FieldGroupRow:
    """A field's read share within one role or prompt version."""

    dimension: str
    group: str
    field: str
    calls: int
    group_calls: int
    share: float | None


@dataclass(frozen=True, slots=True)
class DepthRow:
    """How far back reads reach in one unit: nearest-rank quantiles over calls."""

    unit: str
    """``records``, ``seconds`` or ``tokens``."""
    calls: int
    sessions: int
    median: float | None
    p90: float | None
    p99: float | None
    max: float | None


@dataclass(frozen=True, slots=True)
class RetentionRow:
    """Reads under one retention policy: how many reached back to evicted history."""

    retention: str
    calls: int
    sessions: int
    depth_p99: float | None
    """Nearest-rank p99 of the read depth in records, over calls with a known depth."""
    reached_oldest: int
    hit_eviction: int


@dataclass(frozen=True, slots=True)
class HistoryNeedsInfo:
    """Which record fields code reads and how far back (design record questions 1 and 2).

    Descriptive: these measures decide no verdict. ``fields`` covers the V1
    fields (read or not) and any other schema field read; ``depth`` the calls
    whose depth is known, in records (runtime view, else the code's literal
    bound), seconds and tokens (view only).
    """

    reading_calls: int
    calls_with_fields: int
    sessions_with_fields: int
    fields: tuple[FieldReadRow, ...]
    never_read: tuple[str, ...]
    by_group: tuple[FieldGroupRow, ...]
    depth: tuple[DepthRow, ...]
    depth_runtime: int
    depth_static: int
    depth_unknown: int
    reached_oldest: int
    hit_eviction: int
    evicting_sessions: int
    static_checked: int
    static_exceeded: int
    first_day: str | None
    last_day: str | None
    origins: tuple[str, ...]
    retention: tuple[RetentionRow, ...] = ()


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
    boilerplate: BoilerplateInfo | None = None
    history_needs: HistoryNeedsInfo | None = None

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
        from .markdown import render_markdown  # it reads these types: imported when used

        return render_markdown(self)


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


PRIMITIVE_LABELS: Final = {"contextview": "ContextView", "recurse": "recurse(...)"}


OUTCOME_LABELS: Final = {
    "justified": "justified",
    "not_justified": "not justified",
    "insufficient_evidence": "insufficient evidence",
}


INTERVAL_NAMES: Final = {
    "percentile": "percentile",
    "bca": "bias-corrected and accelerated (BCa)",
    "studentized": "studentized (bootstrap-t)",
}
"""How the report names each ``[bootstrap] interval`` method."""
