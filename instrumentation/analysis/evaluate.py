"""Measure the detector against the hand-labelled corpus, next to the runtime's baseline.

The corpus (``data/detector-corpus/``) holds programs we wrote (``file:`` entries)
and labels for real generated programs that stay in the reference logs
(``reference:`` entries, read at evaluation time and never copied into the
repository). A reference entry whose log is absent, or whose code no longer
hashes to the labelled ``code_sha256``, is skipped and named in the report: a
label is only valid for the exact program that was read.

    report = evaluate("data/detector-corpus", "../shared/reference")
    print(format_markdown(report))
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ._analyze import analyze_code
from ._baseline import baseline_analysis
from ._model import ALL_OPS, CONTEXTVIEW_OPS

__all__ = [
    "CorpusError",
    "Counts",
    "Disagreement",
    "EvalReport",
    "Skipped",
    "default_corpus_dir",
    "default_reference_dir",
    "evaluate",
    "format_markdown",
    "load_labels",
]

DETECTORS: Final = ("ours", "baseline")
SCOPES: Final = ("overall", "python", "ruby")
REFERENCE_ENV: Final = "RECURSCOPE_REFERENCE_DIR"
_REQUIRED: Final = ("id", "language", "source", "accessed", "ops", "note")
# Op order in reports: simple access first, ContextView-shaped last.
OP_ORDER: Final = (
    "filter", "map", "slice", "peek", "count", "index", "find", "sort", "iterate",
    "group", "grep", "partition", "summarize",
)  # fmt: skip


class CorpusError(Exception):
    """The corpus folder or its ``labels.json`` is missing or malformed.

    The message says what to do about it.
    """


@dataclass(frozen=True, slots=True)
class Counts:
    """Confusion counts for one yes/no question; precision/recall are ``None`` when undefined."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None
        return 2 * p * r / (p + r)

    def add(self, label: bool, predicted: bool) -> Counts:
        return Counts(
            self.tp + (label and predicted),
            self.fp + (predicted and not label),
            self.fn + (label and not predicted),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


@dataclass(frozen=True, slots=True)
class Skipped:
    """A labelled entry that could not be evaluated, and why."""

    id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One entry where a detector's answer differs from the label."""

    id: str
    detector: str
    language: str
    label_accessed: bool
    predicted_accessed: bool
    missing_ops: tuple[str, ...]
    extra_ops: tuple[str, ...]
    note: str


@dataclass(frozen=True, slots=True)
class EvalReport:
    """Scores of our detector and the baseline on one corpus.

    ``scores[detector][scope][metric]`` holds ``Counts``: detector is ``ours``
    or ``baseline``; scope ``overall``, ``python`` or ``ruby``; metric
    ``accessed``, ``contextview_shaped``, ``ops`` (micro-average over ops) or
    ``op:<name>``. ``evaluated`` counts entries scored; ``skipped`` names the rest.
    """

    corpus_dir: str
    reference_dir: str | None
    evaluated: int
    evaluated_by_language: Mapping[str, int]
    skipped: tuple[Skipped, ...]
    scores: Mapping[str, Mapping[str, Mapping[str, Counts]]]
    disagreements: tuple[Disagreement, ...]

    def counts(self, detector: str, metric: str, scope: str = "overall") -> Counts:
        """Counts for one metric, zero counts if that scope never saw it."""
        return self.scores.get(detector, {}).get(scope, {}).get(metric, Counts())

    def to_json(self) -> str:
        """The whole report as a JSON document (stable key order)."""
        doc = {
            "corpus_dir": self.corpus_dir,
            "reference_dir": self.reference_dir,
            "evaluated": self.evaluated,
            "evaluated_by_language": dict(self.evaluated_by_language),
            "skipped": [{"id": s.id, "reason": s.reason} for s in self.skipped],
            "scores": {
                detector: {
                    scope: {metric: c.to_dict() for metric, c in sorted(metrics.items())}
                    for scope, metrics in scopes.items()
                }
                for detector, scopes in self.scores.items()
            },
            "disagreements": [
                {
                    "id": d.id,
                    "detector": d.detector,
                    "language": d.language,
                    "label_accessed": d.label_accessed,
                    "predicted_accessed": d.predicted_accessed,
                    "missing_ops": list(d.missing_ops),
                    "extra_ops": list(d.extra_ops),
                    "note": d.note,
                }
                for d in self.disagreements
            ],
        }
        return json.dumps(doc, indent=2, sort_keys=False)


@dataclass(frozen=True, slots=True)
class LabelledEntry:
    """One validated ``labels.json`` entry."""

    id: str
    language: str
    source: str
    accessed: bool
    ops: frozenset[str]
    note: str
    code_sha256: str | None = None
    history_names: tuple[str, ...] = ()


def load_labels(corpus_dir: str | os.PathLike[str]) -> list[LabelledEntry]:
    """Read and validate ``labels.json``; raises ``CorpusError`` saying what is wrong."""
    root = Path(corpus_dir)
    path = root / "labels.json"
    if not root.is_dir():
        raise CorpusError(
            f"corpus folder {str(root)!r} does not exist; run from the repository root "
            "or pass --corpus PATH to the folder holding labels.json"
        )
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorpusError(
            f"{str(path)!r} is missing; the corpus folder must hold labels.json"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CorpusError(f"{str(path)!r} is not valid JSON ({exc}); fix or restore it") from None
    items = raw.get("entries") if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        raise CorpusError(f"{str(path)!r} must be a list of entries or an object with 'entries'")
    entries: list[LabelledEntry] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        entry = _validate(item, index, path)
        if entry.id in seen:
            raise CorpusError(f"{str(path)!r}: duplicate id {entry.id!r}; ids must be unique")
        seen.add(entry.id)
        entries.append(entry)
    return entries


def _validate(item: object, index: int, path: Path) -> LabelledEntry:
    where = f"{str(path)!r} entry {index}"
    if not isinstance(item, dict):
        raise CorpusError(f"{where} is not an object")
    missing = [k for k in _REQUIRED if k not in item]
    if missing:
        raise CorpusError(f"{where} lacks {', '.join(missing)}; every entry needs {_REQUIRED}")
    if not all(isinstance(item[k], str) for k in ("id", "language", "source", "note")):
        raise CorpusError(f"{where}: id, language, source and note must be strings")
    if not isinstance(item["accessed"], bool):
        raise CorpusError(f"{where}: accessed must be true or false")
    ops = item["ops"]
    if not isinstance(ops, list) or not all(isinstance(o, str) for o in ops):
        raise CorpusError(f"{where}: ops must be a list of op names")
    unknown = set(ops) - ALL_OPS
    if unknown:
        raise CorpusError(f"{where}: unknown ops {sorted(unknown)}; use names from ALL_OPS")
    if ops != sorted(set(ops)):
        raise CorpusError(f"{where}: ops must be sorted and unique")
    if ops and not item["accessed"]:
        raise CorpusError(f"{where}: ops given for a program that does not access history")
    source = item["source"]
    if not source.startswith(("file:", "reference:")):
        raise CorpusError(f"{where}: source must start with 'file:' or 'reference:'")
    if source.startswith("reference:") and not isinstance(item.get("code_sha256"), str):
        raise CorpusError(f"{where}: reference entries need code_sha256 to detect drift")
    names = item.get("history_names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CorpusError(f"{where}: history_names must be a list of strings")
    sha = item.get("code_sha256")
    return LabelledEntry(
        id=item["id"],
        language=item["language"],
        source=source,
        accessed=item["accessed"],
        ops=frozenset(ops),
        note=item["note"],
        code_sha256=sha if isinstance(sha, str) else None,
        history_names=tuple(names),
    )


def _load_code(
    entry: LabelledEntry, corpus: Path, reference: Path | None
) -> tuple[str | None, str | None]:
    """(code, None) or (None, why it was skipped)."""
    if entry.source.startswith("file:"):
        path = corpus / entry.source[len("file:") :]
        try:
            code = path.read_text(encoding="utf-8")
        except OSError:
            raise CorpusError(
                f"{entry.id}: {str(path)!r} is listed in labels.json but missing; "
                "restore the file or remove its entry"
            ) from None
    else:
        spec = entry.source[len("reference:") :]
        rel, _, line_text = spec.rpartition("#")
        if reference is None:
            return None, "reference folder absent"
        path = reference / rel
        if not path.is_file():
            return None, f"reference log {rel} absent"
        try:
            line_no = int(line_text)
            lines = path.read_text(encoding="utf-8").splitlines()
            record = json.loads(lines[line_no])
        except (ValueError, IndexError, OSError):
            return None, f"line {line_text} of {rel} unreadable"
        found = record.get("code") if isinstance(record, dict) else None
        if not isinstance(found, str):
            return None, f"line {line_text} of {rel} has no code"
        code = found
    if entry.code_sha256 is not None:
        digest = hashlib.sha256(code.encode("utf-8")).hexdigest()
        if digest != entry.code_sha256:
            return None, "code hash drifted since labelling (relabel the entry)"
    return code, None


def evaluate(
    corpus_dir: str | os.PathLike[str], reference_dir: str | os.PathLike[str] | None
) -> EvalReport:
    """Score our detector and the baseline against every evaluable labelled entry."""
    corpus = Path(corpus_dir)
    entries = load_labels(corpus)
    reference = Path(reference_dir) if reference_dir is not None else None
    if reference is not None and not reference.is_dir():
        reference = None
    scores: dict[str, dict[str, dict[str, Counts]]] = {
        d: {s: {} for s in SCOPES} for d in DETECTORS
    }
    skipped: list[Skipped] = []
    disagreements: list[Disagreement] = []
    by_language: dict[str, int] = {}
    for entry in entries:
        code, why = _load_code(entry, corpus, reference)
        if code is None:
            skipped.append(Skipped(entry.id, why or "unreadable"))
            continue
        by_language[entry.language] = by_language.get(entry.language, 0) + 1
        analysis = analyze_code(code, entry.language, history_names=entry.history_names)
        base_accessed, base_ops = baseline_analysis(code)
        predictions = {
            "ours": (analysis.accessed, analysis.ops),
            "baseline": (base_accessed, base_ops),
        }
        for detector, (accessed, ops) in predictions.items():
            for scope in ("overall", entry.language):
                table = scores[detector].setdefault(scope, {})
                _score(table, entry, accessed, ops)
            if accessed != entry.accessed or ops != entry.ops:
                disagreements.append(
                    Disagreement(
                        id=entry.id,
                        detector=detector,
                        language=entry.language,
                        label_accessed=entry.accessed,
                        predicted_accessed=accessed,
                        missing_ops=tuple(sorted(entry.ops - ops)),
                        extra_ops=tuple(sorted(ops - entry.ops)),
                        note=entry.note,
                    )
                )
    return EvalReport(
        corpus_dir=str(corpus),
        reference_dir=str(reference) if reference is not None else None,
        evaluated=sum(by_language.values()),
        evaluated_by_language=by_language,
        skipped=tuple(skipped),
        scores=scores,
        disagreements=tuple(disagreements),
    )


def _score(
    table: dict[str, Counts], entry: LabelledEntry, accessed: bool, ops: frozenset[str]
) -> None:
    def bump(metric: str, label: bool, predicted: bool) -> None:
        table[metric] = table.get(metric, Counts()).add(label, predicted)

    bump("accessed", entry.accessed, accessed)
    bump("contextview_shaped", bool(entry.ops & CONTEXTVIEW_OPS), bool(ops & CONTEXTVIEW_OPS))
    for op in sorted(ALL_OPS):
        if op in entry.ops or op in ops:
            bump(f"op:{op}", op in entry.ops, op in ops)
            bump("ops", op in entry.ops, op in ops)


# -- Markdown -------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _row(name: str, counts: Iterable[Counts]) -> str:
    cells = [name]
    for c in counts:
        cells += [_pct(c.precision), _pct(c.recall), _pct(c.f1), f"{c.tp}/{c.fp}/{c.fn}"]
    return "| " + " | ".join(cells) + " |"


_HEADER: Final = (
    "| {what} | ours P | ours R | ours F1 | ours TP/FP/FN "
    "| baseline P | baseline R | baseline F1 | baseline TP/FP/FN |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def format_markdown(report: EvalReport) -> str:
    """The report as Markdown, pasteable into a design record."""
    langs = ", ".join(f"{n} {lang}" for lang, n in sorted(report.evaluated_by_language.items()))
    out = [
        "## History-access detector: ours vs the runtime's regex baseline",
        "",
        f"Corpus `{report.corpus_dir}`; reference logs "
        f"`{report.reference_dir or 'absent'}`. Evaluated {report.evaluated} programs "
        f"({langs or 'none'}); skipped {len(report.skipped)}.",
        "",
        "### Accessed",
        "",
        _HEADER.format(what="scope"),
    ]
    for scope in SCOPES:
        if scope != "overall" and not report.evaluated_by_language.get(scope):
            continue
        out.append(_row(scope, (report.counts(d, "accessed", scope) for d in DETECTORS)))
    out += ["", "### Ops (overall)", "", _HEADER.format(what="op")]
    for metric, label in [
        *((f"op:{op}", op) for op in OP_ORDER),
        ("ops", "all ops (micro)"),
        ("contextview_shaped", "ContextView-shaped"),
    ]:
        out.append(_row(label, (report.counts(d, metric) for d in DETECTORS)))
    for scope in SCOPES[1:]:
        if not report.evaluated_by_language.get(scope):
            continue
        out += ["", f"### Ops ({scope})", "", _HEADER.format(what="op")]
        for op in OP_ORDER:
            metric = f"op:{op}"
            if any(report.counts(d, metric, scope) != Counts() for d in DETECTORS):
                out.append(_row(op, (report.counts(d, metric, scope) for d in DETECTORS)))
        out.append(_row("all ops (micro)", (report.counts(d, "ops", scope) for d in DETECTORS)))
    out += [
        "",
        "P = precision, R = recall; n/a where the denominator is zero (the baseline "
        "has no rule for that op, or nothing was labelled or predicted).",
    ]
    ours = [d for d in report.disagreements if d.detector == "ours"]
    base_count = sum(1 for d in report.disagreements if d.detector == "baseline")
    out += ["", f"### Disagreements with the labels: ours {len(ours)}, baseline {base_count}", ""]
    for d in ours:
        parts = []
        if d.label_accessed != d.predicted_accessed:
            parts.append(f"accessed: label {d.label_accessed}, ours {d.predicted_accessed}")
        if d.missing_ops:
            parts.append("missed " + ", ".join(d.missing_ops))
        if d.extra_ops:
            parts.append("extra " + ", ".join(d.extra_ops))
        out.append(f"- `{d.id}`: {'; '.join(parts)} ({d.note})")
    if report.skipped:
        out += ["", "### Skipped", ""]
        out += [f"- `{s.id}`: {s.reason}" for s in report.skipped]
    return "\n".join(out) + "\n"


# -- CLI ----------------------------------------------------------------------------


def default_corpus_dir() -> str:
    """``data/detector-corpus`` in the current folder, else the corpus shipped with the package."""
    local = Path("data") / "detector-corpus"
    if (local / "labels.json").exists():
        return str(local)
    shipped = Path(__file__).resolve().parents[2] / "data" / "detector-corpus"
    return str(shipped) if (shipped / "labels.json").exists() else str(local)


def default_reference_dir() -> str | None:
    """``$RECURSCOPE_REFERENCE_DIR``, else ``../shared/reference`` if it exists, else none."""
    env = os.environ.get(REFERENCE_ENV)
    if env:
        return env
    candidate = Path("..") / "shared" / "reference"
    return str(candidate) if candidate.is_dir() else None
