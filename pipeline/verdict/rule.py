"""The pre-registration file and the decision rule: one verdict per primitive.

The pre-registration (``data/preregistration.toml``, see ``docs/verdict.md``)
names the primary criteria with thresholds and rationales, alpha and the
Bonferroni correction, the bootstrap, the evidence window and the
boilerplate S. :func:`decide` applies the rule per primitive:

- *justified* when every primary criterion's adjusted lower bound is above
  its threshold;
- *not justified* when every adjusted upper bound is below;
- otherwise *insufficient evidence*, with the further sessions the bootstrap
  suggests would decide it — and always *insufficient evidence* when the
  evidence window is not met.
"""

from __future__ import annotations

import hashlib
import math
import subprocess
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any, Final, Literal

from recurscope.instrumentation.analysis import (
    SKETCH_FOOTPRINT_FLOOR,
    SKETCH_FOOTPRINT_MIN_EDITS,
    SKETCH_FOOTPRINT_SIMILARITY,
    SKETCH_WORDS,
)

from ..errors import PreregistrationError
from ..evidence.clusters import ClusterSettings
from .stats import INTERVAL_METHODS, Interval, further_sessions

__all__ = [
    "DEFAULT_PREREGISTRATION",
    "PRIMITIVES",
    "Amendment",
    "CriterionDecision",
    "CriterionSpec",
    "IntegrityCheck",
    "Outcome",
    "Preregistration",
    "PreregistrationError",
    "Verdict",
    "WindowCheck",
    "WindowSpec",
    "check_integrity",
    "check_window",
    "decide",
    "default_preregistration_path",
    "load_preregistration",
]

DEFAULT_PREREGISTRATION: Final = Path("data") / "preregistration.toml"
"""Where the CLI looks for the pre-registration unless told otherwise."""

PRIMITIVES: Final = ("contextview", "recurse")
"""The two primitives with a verdict each, in report order."""

Outcome = Literal["justified", "not_justified", "insufficient_evidence"]
Side = Literal["above", "below", "straddles", "no_data"]


@dataclass(frozen=True, slots=True)
class CriterionSpec:
    """A pre-registered primary criterion: the estimate must clear ``threshold``."""

    name: str
    primitive: str
    threshold: float
    definition: str
    rationale: str


@dataclass(frozen=True, slots=True)
class Amendment:
    """One amendment of the pre-registration: the version it made, when, what and why."""

    version: int
    registered_at: datetime | None
    changes: str
    rationale: str


@dataclass(frozen=True, slots=True)
class WindowSpec:
    """The evidence window: spans in ``[start, end)`` (``None`` = unbounded) and its gates."""

    start: datetime | None
    end: datetime | None
    min_sessions: int
    min_days: int
    min_runs: int
    min_seeds: int
    rationale: str


@dataclass(frozen=True, slots=True)
class Preregistration:
    """A parsed pre-registration file, with its SHA-256 and modification time.

    Invariants: at least one primary criterion per primitive in
    :data:`PRIMITIVES`; ``0 < alpha < 1``; ``resamples >= 100``.
    """

    path: str
    sha256: str
    modified_at: datetime
    registered_at: datetime | None
    alpha: float
    correction: str
    rule: str
    resamples: int
    seed: int
    interval: str
    descriptive_confidence: float
    window: WindowSpec
    min_other_sessions: int
    boilerplate_rationale: str
    criteria: tuple[CriterionSpec, ...]
    version: int = 1
    amendments: tuple[Amendment, ...] = ()
    clusters: ClusterSettings | None = None
    """Near-duplicate clustering of code shapes (``[boilerplate] similarity``, version 3);
    ``None``: boilerplate counts exact fingerprints (versions 1-2)."""
    similarity_rationale: str = ""
    sketch_scheme: str = ""
    """``[boilerplate] sketch_scheme``: the sketches the similarity was chosen for (version 6 on)."""

    @property
    def comparisons(self) -> int:
        """m: primary criteria across both primitives (the Bonferroni divisor)."""
        return len(self.criteria)

    @property
    def adjusted_confidence(self) -> float:
        """Two-sided confidence of each primary interval: 1 − alpha/m (Bonferroni)."""
        if self.correction == "none":
            return 1 - self.alpha
        return 1 - self.alpha / self.comparisons

    def criteria_of(self, primitive: str) -> tuple[CriterionSpec, ...]:
        """The primary criteria of ``primitive``, in file order."""
        return tuple(c for c in self.criteria if c.primitive == primitive)


def default_preregistration_path() -> Path:
    """``data/preregistration.toml`` in the current folder, else the one shipped with the code."""
    if DEFAULT_PREREGISTRATION.exists():
        return DEFAULT_PREREGISTRATION
    shipped = Path(__file__).resolve().parents[2] / DEFAULT_PREREGISTRATION  # recurscope/data/
    return shipped if shipped.exists() else DEFAULT_PREREGISTRATION


def _as_datetime(value: object, what: str) -> datetime | None:
    """TOML dates/datetimes or ISO text as naive UTC; '' means unbounded."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, date):
        parsed = datetime.combine(value, time())
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise PreregistrationError(
                f"{what} = {value!r} is not a date or datetime; write e.g. 2026-03-01 "
                "or 2026-03-01T09:00:00Z (or '' for none)."
            ) from None
    else:
        raise PreregistrationError(f"{what} must be a date or datetime, got {value!r}.")
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


def _section(data: Mapping[str, Any], name: str, path: Path) -> Mapping[str, Any]:
    section = data.get(name)
    if not isinstance(section, dict):
        raise PreregistrationError(f"{path} has no [{name}] table; see docs/verdict.md.")
    return section


def _number(section: Mapping[str, Any], key: str, where: str, kind: type = float) -> Any:
    value = section.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PreregistrationError(f"[{where}] {key} must be a number, got {value!r}.")
    return kind(value)


REGISTERED_SUFFIX: Final = ".sha256"
"""Beside ``preregistration.toml``: the SHA-256 of the content as registered."""


def registered_sha256(file: Path) -> str | None:
    """The hash recorded when ``file`` was registered (``<file>.sha256``), if any.

    When it equals the file's own hash, the content is exactly what was
    registered at ``registered_at``, so that is when it last changed — no
    modification time or git history needed (an installed wheel or a fresh
    clone sets every mtime to *now*). Written by
    ``python tools/register_preregistration.py`` with each (amended) version.
    """
    try:
        text = file.with_name(file.name + REGISTERED_SUFFIX).read_text(encoding="utf-8")
    except OSError:
        return None
    token = text.split()[0] if text.split() else ""
    return token.lower() if len(token) == 64 else None


def last_changed(file: Path) -> datetime:
    """When ``file``'s content last changed (UTC, naive).

    Its modification time, unless git tracks the file and it is unchanged
    since its last commit: then that commit's time. A fresh clone or
    checkout sets every file's mtime to *now*, which would make a
    pre-registration look edited after any earlier evidence window.
    """
    modified = datetime.fromtimestamp(file.stat().st_mtime, UTC).replace(tzinfo=None)

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *args, "--", file.name],
            cwd=file.parent,
            capture_output=True,
            text=True,
            timeout=10,
        )

    try:
        status = git("status", "--porcelain")
        if status.returncode != 0 or status.stdout.strip():
            return modified  # not in a repository, untracked, or changed since its commit
        log = git("log", "-1", "--format=%ct")
        if log.returncode != 0 or not log.stdout.strip():
            return modified  # ignored by git
        committed = int(log.stdout.strip())
    except (OSError, subprocess.SubprocessError, ValueError):
        return modified  # no git here
    return datetime.fromtimestamp(committed, UTC).replace(tzinfo=None)


def load_preregistration(path: str | Path) -> Preregistration:
    """Read and check the pre-registration at ``path``.

    Raises :class:`PreregistrationError` naming the field to fix when the
    file is missing, not TOML, or lacks a required value.
    """
    file = Path(path)
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        raise PreregistrationError(
            f"No pre-registration at {file}: pass --prereg PATH (the shipped default is "
            "data/preregistration.toml)."
        ) from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise PreregistrationError(f"{file} is not valid TOML: {error}.") from None

    registration = data.get("registration", {})
    decision = _section(data, "decision", file)
    bootstrap = _section(data, "bootstrap", file)
    window = _section(data, "window", file)
    boilerplate = _section(data, "boilerplate", file)
    criteria_table = _section(data, "criteria", file)

    alpha = _number(decision, "alpha", "decision")
    if not 0 < alpha < 1:
        raise PreregistrationError(f"[decision] alpha must be in (0, 1), got {alpha}.")
    correction = str(decision.get("correction", "bonferroni"))
    if correction not in ("bonferroni", "none"):
        raise PreregistrationError(
            f"[decision] correction must be 'bonferroni' or 'none', got {correction!r}."
        )
    resamples = _number(bootstrap, "resamples", "bootstrap", int)
    if resamples < 100:
        raise PreregistrationError("[bootstrap] resamples must be at least 100.")
    interval = str(bootstrap.get("interval", "percentile"))
    if interval not in INTERVAL_METHODS:
        raise PreregistrationError(
            f"[bootstrap] interval must be one of {', '.join(INTERVAL_METHODS)}, "
            f"got {interval!r} (docs/verdict.md, 'Coverage')."
        )
    version = registration.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise PreregistrationError(
            f"[registration] version must be a positive integer, got {version!r}."
        )
    amendments = _amendments(data.get("amendments", []), version, file)

    criteria: list[CriterionSpec] = []
    for name, spec in criteria_table.items():
        if not isinstance(spec, dict):
            raise PreregistrationError(f"[criteria.{name}] must be a table.")
        primitive = spec.get("primitive")
        if primitive not in PRIMITIVES:
            raise PreregistrationError(
                f"[criteria.{name}] primitive must be one of {', '.join(PRIMITIVES)}, "
                f"got {primitive!r}."
            )
        threshold = _number(spec, "threshold", f"criteria.{name}")
        rationale = str(spec.get("rationale", "")).strip()
        if not rationale:
            raise PreregistrationError(
                f"[criteria.{name}] needs a rationale: a threshold without its reason "
                "cannot be reviewed."
            )
        criteria.append(
            CriterionSpec(
                name=str(name),
                primitive=str(primitive),
                threshold=threshold,
                definition=str(spec.get("definition", "")).strip(),
                rationale=" ".join(rationale.split()),
            )
        )
    for primitive in PRIMITIVES:
        if not any(c.primitive == primitive for c in criteria):
            raise PreregistrationError(
                f"{file} names no primary criterion for {primitive}; each primitive needs one."
            )

    sha256 = hashlib.sha256(raw).hexdigest()
    registered_at = _as_datetime(registration.get("registered_at"), "registered_at")
    return Preregistration(
        path=str(file),
        sha256=sha256,
        modified_at=(
            registered_at
            if registered_at is not None and registered_sha256(file) == sha256
            else last_changed(file)
        ),
        registered_at=registered_at,
        alpha=alpha,
        correction=correction,
        rule=" ".join(str(decision.get("rule", "")).split()),
        resamples=resamples,
        seed=_number(bootstrap, "seed", "bootstrap", int),
        interval=interval,
        descriptive_confidence=float(decision.get("descriptive_confidence", 0.95)),
        window=WindowSpec(
            start=_as_datetime(window.get("start"), "[window] start"),
            end=_as_datetime(window.get("end"), "[window] end"),
            min_sessions=_number(window, "min_sessions", "window", int),
            min_days=_number(window, "min_days", "window", int),
            min_runs=_number(window, "min_runs", "window", int),
            min_seeds=int(window.get("min_seeds", 0)),
            rationale=" ".join(str(window.get("rationale", "")).split()),
        ),
        min_other_sessions=_number(boilerplate, "min_other_sessions", "boilerplate", int),
        boilerplate_rationale=" ".join(str(boilerplate.get("rationale", "")).split()),
        clusters=_cluster_settings(boilerplate, file),
        similarity_rationale=" ".join(str(boilerplate.get("similarity_rationale", "")).split()),
        sketch_scheme=str(boilerplate.get("sketch_scheme", "")),
        criteria=tuple(criteria),
        version=version,
        amendments=amendments,
    )


def _cluster_settings(boilerplate: Mapping[str, Any], file: Path) -> ClusterSettings | None:
    """``[boilerplate] similarity`` and its linkage and bands, or ``None`` when absent."""
    if "similarity" not in boilerplate:
        return None
    similarity = _number(boilerplate, "similarity", "boilerplate", float)
    if not 0 < similarity <= 1:
        raise PreregistrationError(
            f"{file}: [boilerplate] similarity must be in (0, 1], got {similarity!r}."
        )
    linkage = boilerplate.get("linkage", "leader")
    if linkage != "leader":
        raise PreregistrationError(
            f'{file}: [boilerplate] linkage must be "leader" (the only one implemented), '
            f"got {linkage!r}."
        )
    rows = (
        _number(boilerplate, "band_rows", "boilerplate", int) if "band_rows" in boilerplate else 4
    )
    count = (
        _number(boilerplate, "band_count", "boilerplate", int)
        if "band_count" in boilerplate
        else 16
    )
    if rows < 1 or count < 1 or rows * count > SKETCH_WORDS:
        raise PreregistrationError(
            f"{file}: [boilerplate] band_rows x band_count must be at least 1 and at most "
            f"{SKETCH_WORDS} (the sketch's words), got {rows} x {count}."
        )
    for key, fixed, where in (
        ("footprint_similarity", SKETCH_FOOTPRINT_SIMILARITY, "_sketch.py and the SQL macro"),
        ("footprint_floor", SKETCH_FOOTPRINT_FLOOR, "_sketch.py and the SQL macro"),
        ("footprint_min_edits", SKETCH_FOOTPRINT_MIN_EDITS, "_behaviour.py"),
    ):
        if key in boilerplate and _number(boilerplate, key, "boilerplate", float) != fixed:
            raise PreregistrationError(
                f"{file}: [boilerplate] {key} = {boilerplate[key]!r}, but the sketch scheme "
                f"fixes it at {fixed} (instrumentation/analysis/{where}): a different value "
                "is a new sketch scheme, not a setting."
            )
    return ClusterSettings(threshold=similarity, band_rows=rows, band_count=count)


def _amendments(entries: object, version: int, file: Path) -> tuple[Amendment, ...]:
    """``[[amendments]]``: one per version after the first, each with changes and rationale."""
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise PreregistrationError(
            f"{file}: [[amendments]] must be an array of tables (version, registered_at, "
            "changes, rationale)."
        )
    result = []
    for entry in entries:
        number = entry.get("version")
        where = f"[[amendments]] version {number!r}"
        if not isinstance(number, int) or isinstance(number, bool) or not 1 < number <= version:
            raise PreregistrationError(
                f"{where}: version must be an integer from 2 to the file's version ({version})."
            )
        changes = " ".join(str(entry.get("changes", "")).split())
        rationale = " ".join(str(entry.get("rationale", "")).split())
        if not changes or not rationale:
            raise PreregistrationError(
                f"{where} needs both 'changes' and 'rationale': an amendment without its "
                "reason cannot be reviewed."
            )
        result.append(
            Amendment(
                version=number,
                registered_at=_as_datetime(entry.get("registered_at"), f"{where} registered_at"),
                changes=changes,
                rationale=rationale,
            )
        )
    numbers = sorted(a.version for a in result)
    if numbers != list(range(2, version + 1)):
        raise PreregistrationError(
            f"{file} is version {version}: it needs one [[amendments]] entry for each of "
            f"versions 2..{version}, found {numbers or 'none'}."
        )
    return tuple(sorted(result, key=lambda a: a.version))


# ---------------------------------------------------------------------------
# Checks


@dataclass(frozen=True, slots=True)
class WindowCheck:
    """The evidence window's gates against what the evidence covers.

    ``seeds`` is 0 when no span carries ``recurscope.seed``; the seed gate
    then does not apply (real traffic has no seeds). ``missing`` lists each
    unmet gate in words; ``met`` is true when it is empty.
    """

    sessions: int
    days: int
    runs: int
    seeds: int
    first_span_at: datetime | None
    last_span_at: datetime | None
    missing: tuple[str, ...]

    @property
    def met(self) -> bool:
        return not self.missing


def check_window(prereg: Preregistration, coverage: Mapping[str, Any]) -> WindowCheck:
    """Compare ``coverage`` (a row of the ``coverage`` table) with the window's gates."""
    spec = prereg.window
    sessions = int(coverage.get("sessions") or 0)
    days = int(coverage.get("days") or 0)
    runs = int(coverage.get("runs") or 0)
    seeds = int(coverage.get("seeds") or 0)
    missing: list[str] = []
    if sessions < spec.min_sessions:
        missing.append(
            f"{spec.min_sessions - sessions} more sessions ({sessions} of {spec.min_sessions})"
        )
    if days < spec.min_days:
        missing.append(f"{spec.min_days - days} more distinct days ({days} of {spec.min_days})")
    if runs < spec.min_runs:
        missing.append(f"{spec.min_runs - runs} more runs ({runs} of {spec.min_runs})")
    if seeds > 0 and seeds < spec.min_seeds:
        missing.append(f"{spec.min_seeds - seeds} more seeds ({seeds} of {spec.min_seeds})")
    return WindowCheck(
        sessions=sessions,
        days=days,
        runs=runs,
        seeds=seeds,
        first_span_at=coverage.get("first_span_at"),
        last_span_at=coverage.get("last_span_at"),
        missing=tuple(missing),
    )


@dataclass(frozen=True, slots=True)
class IntegrityCheck:
    """Was the pre-registration fixed before the evidence window began?

    ``registered_after_start`` compares the file's ``registered_at`` with the
    window's first span; ``modified_after_start`` its modification time. A
    flag means the thresholds may have been set after seeing data.
    """

    sha256: str
    registered_at: datetime | None
    modified_at: datetime
    window_start: datetime | None
    registered_after_start: bool
    modified_after_start: bool

    @property
    def flagged(self) -> bool:
        return self.registered_after_start or self.modified_after_start


def check_integrity(prereg: Preregistration, first_span_at: datetime | None) -> IntegrityCheck:
    """Flag a pre-registration registered or modified after ``first_span_at``."""
    start = first_span_at
    return IntegrityCheck(
        sha256=prereg.sha256,
        registered_at=prereg.registered_at,
        modified_at=prereg.modified_at,
        window_start=start,
        registered_after_start=bool(
            start is not None and prereg.registered_at is not None and prereg.registered_at > start
        ),
        modified_after_start=bool(start is not None and prereg.modified_at > start),
    )


# ---------------------------------------------------------------------------
# Decision


@dataclass(frozen=True, slots=True)
class CriterionDecision:
    """One primary criterion against its threshold.

    ``side`` is ``above`` (adjusted lower bound above the threshold),
    ``below`` (upper bound below), ``straddles`` or ``no_data``.
    ``further_sessions`` projects how many more sessions would separate a
    straddling criterion (0 when separated, ``None`` when not projectable).
    """

    name: str
    primitive: str
    threshold: float
    interval: Interval
    side: Side
    further_sessions: int | None


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verdict on one primitive, with the reason in words."""

    primitive: str
    outcome: Outcome
    reason: str
    further_sessions: int | None
    criteria: tuple[CriterionDecision, ...]


def _side(interval: Interval, threshold: float) -> Side:
    if interval.estimate is None or interval.lower is None or interval.upper is None:
        return "no_data"
    if interval.lower > threshold:
        return "above"
    if interval.upper < threshold:
        return "below"
    return "straddles"


def _decide_one(
    primitive: str, decisions: Sequence[CriterionDecision], window: WindowCheck
) -> Verdict:
    sides = [d.side for d in decisions]
    names = ", ".join(d.name for d in decisions)
    if not window.met:
        return Verdict(
            primitive,
            "insufficient_evidence",
            "The pre-registered evidence window is not met: needs "
            + "; ".join(window.missing)
            + ".",
            None,
            tuple(decisions),
        )
    if all(side == "above" for side in sides):
        return Verdict(
            primitive,
            "justified",
            f"Every primary criterion's adjusted lower bound is above its threshold ({names}).",
            0,
            tuple(decisions),
        )
    if all(side == "below" for side in sides):
        return Verdict(
            primitive,
            "not_justified",
            f"Every primary criterion's adjusted upper bound is below its threshold ({names}).",
            0,
            tuple(decisions),
        )
    no_data = [d.name for d in decisions if d.side == "no_data"]
    if no_data:
        return Verdict(
            primitive,
            "insufficient_evidence",
            f"No data yet for {', '.join(no_data)} (its denominator is 0).",
            None,
            tuple(decisions),
        )
    above = [
        d
        for d in decisions
        if d.side == "above"
        or (
            d.side == "straddles"
            and d.interval.estimate is not None
            and d.interval.estimate > d.threshold
        )
    ]
    below = [
        d
        for d in decisions
        if d.side == "below"
        or (
            d.side == "straddles"
            and d.interval.estimate is not None
            and d.interval.estimate < d.threshold
        )
    ]
    if above and below:
        return Verdict(
            primitive,
            "insufficient_evidence",
            "Mixed evidence: "
            + ", ".join(d.name for d in above)
            + " point above threshold, "
            + ", ".join(d.name for d in below)
            + " below; more sessions at these estimates would not decide it under the "
            "pre-registered rule.",
            None,
            tuple(decisions),
        )
    straddling = [d for d in decisions if d.side == "straddles"]
    needs = [d.further_sessions for d in straddling]
    if any(n is None for n in needs):
        further: int | None = None
        detail = "an estimate sits exactly on its threshold, so no number of sessions is projected"
    else:
        further = max(n for n in needs if n is not None)
        detail = f"about {further} more sessions at the current estimates would decide it"
    return Verdict(
        primitive,
        "insufficient_evidence",
        "The adjusted interval of "
        + ", ".join(d.name for d in straddling)
        + f" includes its threshold; {detail}.",
        further,
        tuple(decisions),
    )


def decide(
    prereg: Preregistration,
    intervals: Mapping[str, Interval],
    window: WindowCheck,
) -> tuple[Verdict, ...]:
    """Apply the pre-registered rule to ``intervals`` (adjusted, per primary criterion).

    Returns one :class:`Verdict` per primitive in :data:`PRIMITIVES` order.
    Raises :class:`PreregistrationError` when a pre-registered criterion has
    no interval (the file names a criterion the evidence does not compute).
    """
    verdicts = []
    for primitive in PRIMITIVES:
        decisions = []
        for spec in prereg.criteria_of(primitive):
            interval = intervals.get(spec.name)
            if interval is None:
                raise PreregistrationError(
                    f"The pre-registration names {spec.name!r}, which the evidence does not "
                    "compute; known criteria are listed in docs/verdict.md."
                )
            if not math.isclose(interval.confidence, prereg.adjusted_confidence):
                raise ValueError(
                    f"{spec.name}: interval at {interval.confidence}, the rule needs "
                    f"{prereg.adjusted_confidence}"
                )
            side = _side(interval, spec.threshold)
            decisions.append(
                CriterionDecision(
                    name=spec.name,
                    primitive=primitive,
                    threshold=spec.threshold,
                    interval=interval,
                    side=side,
                    further_sessions=(
                        0
                        if side in ("above", "below")
                        else further_sessions(interval, spec.threshold)
                    ),
                )
            )
        verdicts.append(_decide_one(primitive, decisions, window))
    return tuple(verdicts)
