"""Measure the detector against the hand-labelled corpus, next to the runtime's baseline.

The corpus (``data/detector-corpus/``) holds programs we wrote (``file:`` entries)
and labels for real generated programs that stay in the reference logs
(``reference:`` entries, read at evaluation time and never copied into the
repository). A reference entry whose log is absent, or whose code no longer
hashes to the labelled ``code_sha256``, is skipped and named in the report: a
label is only valid for the exact program that was read.

Besides ``accessed`` and ``ops``, an entry may label ``fields`` (the record
fields the program reads) and ``static_depth`` (its literal tail bound, or
``null``); those are scored for our detector only (the baseline has neither):
field-read precision and recall micro-averaged over (program, field) pairs, and
static-depth exact-match accuracy. A separate labels file (``labels=``, e.g. a
held-out set) may label only ``fields``/``static_depth``: its entries then count
for those scores alone.

    report = evaluate("data/detector-corpus", "../shared/reference")
    print(format_markdown(report))
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ._analyze import analyze_code
from ._baseline import baseline_analysis
from ._model import ALL_FIELDS, ALL_OPS, CONTEXTVIEW_OPS, OUTCOME_FIELD, CodeAnalysis

__all__ = [
    "CorpusError",
    "Counts",
    "DepthCounts",
    "Disagreement",
    "EvalReport",
    "FieldDisagreement",
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
# An entry that labels fields or static depth may leave out what it does not label.
_REQUIRED_FIELDS_ONLY: Final = ("id", "language", "source", "note")
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
class DepthCounts:
    """Static-depth agreement: exact matches out of labelled programs, split by label kind.

    ``bounded`` counts programs labelled with a number, ``unbounded`` those labelled
    ``null``; ``accuracy`` is ``None`` when nothing was labelled.
    """

    correct: int = 0
    total: int = 0
    bounded_correct: int = 0
    bounded_total: int = 0

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.total if self.total else None

    @property
    def unbounded_correct(self) -> int:
        return self.correct - self.bounded_correct

    @property
    def unbounded_total(self) -> int:
        return self.total - self.bounded_total

    def add(self, label: int | None, predicted: int | None) -> DepthCounts:
        right = label == predicted
        return DepthCounts(
            self.correct + right,
            self.total + 1,
            self.bounded_correct + (right and label is not None),
            self.bounded_total + (label is not None),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "total": self.total,
            "accuracy": self.accuracy,
            "bounded_correct": self.bounded_correct,
            "bounded_total": self.bounded_total,
            "unbounded_correct": self.unbounded_correct,
            "unbounded_total": self.unbounded_total,
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
class FieldDisagreement:
    """One entry where our fields read or static depth differ from the label."""

    id: str
    language: str
    missing_fields: tuple[str, ...]
    extra_fields: tuple[str, ...]
    label_depth: int | None
    predicted_depth: int | None
    depth_labelled: bool
    note: str


@dataclass(frozen=True, slots=True)
class EvalReport:
    """Scores of our detector and the baseline on one corpus.

    ``scores[detector][scope][metric]`` holds ``Counts``: detector is ``ours``
    or ``baseline``; scope ``overall``, ``python`` or ``ruby``; metric
    ``accessed``, ``contextview_shaped``, ``ops`` (micro-average over ops) or
    ``op:<name>``. ``evaluated`` counts entries scored; ``skipped`` names the rest.
    ``field_scores[scope]`` holds our field-read counts over (program, field) pairs
    and ``depth_scores[scope]`` our static-depth agreement, both over entries whose
    label has ``accessed`` true (or unstated) and a ``fields``/``static_depth`` label.
    ``labels_path`` is the labels file read.
    """

    corpus_dir: str
    reference_dir: str | None
    evaluated: int
    evaluated_by_language: Mapping[str, int]
    skipped: tuple[Skipped, ...]
    scores: Mapping[str, Mapping[str, Mapping[str, Counts]]]
    disagreements: tuple[Disagreement, ...]
    labels_path: str = ""
    field_scores: Mapping[str, Counts] = field(default_factory=dict)
    depth_scores: Mapping[str, DepthCounts] = field(default_factory=dict)
    field_disagreements: tuple[FieldDisagreement, ...] = ()

    def counts(self, detector: str, metric: str, scope: str = "overall") -> Counts:
        """Counts for one metric, zero counts if that scope never saw it."""
        return self.scores.get(detector, {}).get(scope, {}).get(metric, Counts())

    def field_counts(self, scope: str = "overall") -> Counts:
        """Our field-read counts over (program, field) pairs; zero if the scope saw none."""
        return self.field_scores.get(scope, Counts())

    def depth_counts(self, scope: str = "overall") -> DepthCounts:
        """Our static-depth agreement; zero if the scope saw no labelled program."""
        return self.depth_scores.get(scope, DepthCounts())

    def to_json(self) -> str:
        """The whole report as a JSON document (stable key order)."""
        doc = {
            "corpus_dir": self.corpus_dir,
            "labels": self.labels_path,
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
            "fields_read": {scope: c.to_dict() for scope, c in self.field_scores.items()},
            "static_depth": {scope: c.to_dict() for scope, c in self.depth_scores.items()},
            "field_disagreements": [
                {
                    "id": d.id,
                    "language": d.language,
                    "missing_fields": list(d.missing_fields),
                    "extra_fields": list(d.extra_fields),
                    "label_depth": d.label_depth,
                    "predicted_depth": d.predicted_depth,
                    "depth_labelled": d.depth_labelled,
                    "note": d.note,
                }
                for d in self.field_disagreements
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
    fields: frozenset[str] | None = None
    static_depth: int | None = None
    depth_labelled: bool = False
    detection_labelled: bool = True


def load_labels(corpus_dir: str | os.PathLike[str]) -> list[LabelledEntry]:
    """Read and validate ``labels.json``; raises ``CorpusError`` saying what is wrong.

    ``corpus_dir`` is the folder holding ``labels.json``, or a labels file itself.
    """
    root = Path(corpus_dir)
    path = root / "labels.json"
    if root.is_file():
        root, path = root.parent, root
    elif root.suffix == ".json":
        raise CorpusError(
            f"labels file {str(root)!r} does not exist; pass --labels PATH to a labels "
            "file, or to the folder holding labels.json"
        )
    elif not root.is_dir():
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
    fields_labelled = "fields" in item or "static_depth" in item
    fields_only = fields_labelled and not ("accessed" in item and "ops" in item)
    required = _REQUIRED_FIELDS_ONLY if fields_labelled else _REQUIRED
    missing = [k for k in required if k not in item]
    if missing:
        raise CorpusError(
            f"{where} lacks {', '.join(missing)}; every entry needs {_REQUIRED} "
            f"(or {_REQUIRED_FIELDS_ONLY} with fields/static_depth)"
        )
    if not all(isinstance(item[k], str) for k in _REQUIRED_FIELDS_ONLY):
        raise CorpusError(f"{where}: id, language, source and note must be strings")
    accessed = item.get("accessed", True)
    if not isinstance(accessed, bool):
        raise CorpusError(f"{where}: accessed must be true or false")
    ops = item.get("ops", [])
    if not isinstance(ops, list) or not all(isinstance(o, str) for o in ops):
        raise CorpusError(f"{where}: ops must be a list of op names")
    unknown = set(ops) - ALL_OPS
    if unknown:
        raise CorpusError(f"{where}: unknown ops {sorted(unknown)}; use names from ALL_OPS")
    if ops != sorted(set(ops)):
        raise CorpusError(f"{where}: ops must be sorted and unique")
    if ops and not accessed:
        raise CorpusError(f"{where}: ops given for a program that does not access history")
    fields = _validate_fields(item, where, accessed)
    depth = item.get("static_depth")
    if depth is not None and (type(depth) is not int or depth < 1):
        raise CorpusError(f"{where}: static_depth must be a whole number of records >= 1, or null")
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
        accessed=accessed,
        ops=frozenset(ops),
        note=item["note"],
        code_sha256=sha if isinstance(sha, str) else None,
        history_names=tuple(names),
        fields=fields,
        static_depth=depth,
        depth_labelled="static_depth" in item,
        detection_labelled=not fields_only,
    )


def _validate_fields(item: dict[str, Any], where: str, accessed: bool) -> frozenset[str] | None:
    if "fields" not in item:
        return None
    fields = item["fields"]
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise CorpusError(f"{where}: fields must be a list of record field names")
    unknown = set(fields) - ALL_FIELDS
    if unknown:
        raise CorpusError(
            f"{where}: unknown fields {sorted(unknown)}; use names from ALL_FIELDS "
            "(keys of outcome_summary as 'outcome_summary.<key>')"
        )
    if fields != sorted(set(fields)):
        raise CorpusError(f"{where}: fields must be sorted and unique")
    if fields and not accessed:
        raise CorpusError(f"{where}: fields given for a program that does not access history")
    if any(f.startswith(f"{OUTCOME_FIELD}.") for f in fields) and OUTCOME_FIELD not in fields:
        raise CorpusError(f"{where}: a key of {OUTCOME_FIELD} is listed without {OUTCOME_FIELD}")
    return frozenset(fields)


def _load_code(
    entry: LabelledEntry, corpus: Path, reference: Path | None, fallback: Path | None = None
) -> tuple[str | None, str | None]:
    """(code, None) or (None, why it was skipped).

    A ``file:`` source is read relative to ``corpus`` (the labels file's folder), else
    relative to ``fallback`` (the main corpus, for a labels file kept elsewhere).
    """
    if entry.source.startswith("file:"):
        rel = entry.source[len("file:") :]
        path = corpus / rel
        if fallback is not None and not path.is_file() and (fallback / rel).is_file():
            path = fallback / rel
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
    corpus_dir: str | os.PathLike[str],
    reference_dir: str | os.PathLike[str] | None,
    labels: str | os.PathLike[str] | None = None,
) -> EvalReport:
    """Score our detector and the baseline against every evaluable labelled entry.

    ``labels`` (a labels file, or a folder holding ``labels.json``) replaces the
    corpus' own labels, e.g. a held-out set; its ``file:`` sources are read from its
    own folder, else from ``corpus_dir``.
    """
    corpus = Path(corpus_dir)
    labels_file = _labels_file(Path(labels)) if labels is not None else corpus / "labels.json"
    entries = load_labels(labels_file if labels is not None else corpus)
    programs = labels_file.parent
    fallback = corpus if labels is not None and corpus.is_dir() else None
    reference = Path(reference_dir) if reference_dir is not None else None
    if reference is not None and not reference.is_dir():
        reference = None
    scores: dict[str, dict[str, dict[str, Counts]]] = {
        d: {s: {} for s in SCOPES} for d in DETECTORS
    }
    field_scores: dict[str, Counts] = {}
    depth_scores: dict[str, DepthCounts] = {}
    skipped: list[Skipped] = []
    disagreements: list[Disagreement] = []
    field_disagreements: list[FieldDisagreement] = []
    by_language: dict[str, int] = {}
    for entry in entries:
        code, why = _load_code(entry, programs, reference, fallback)
        if code is None:
            skipped.append(Skipped(entry.id, why or "unreadable"))
            continue
        by_language[entry.language] = by_language.get(entry.language, 0) + 1
        analysis = analyze_code(code, entry.language, history_names=entry.history_names)
        disagreement = _score_fields(field_scores, depth_scores, entry, analysis)
        if disagreement is not None:
            field_disagreements.append(disagreement)
        if not entry.detection_labelled:
            continue
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
        labels_path=str(labels_file),
        field_scores=field_scores,
        depth_scores=depth_scores,
        field_disagreements=tuple(field_disagreements),
    )


def _labels_file(path: Path) -> Path:
    return path if path.suffix == ".json" or path.is_file() else path / "labels.json"


def _score_fields(
    field_scores: dict[str, Counts],
    depth_scores: dict[str, DepthCounts],
    entry: LabelledEntry,
    analysis: CodeAnalysis,
) -> FieldDisagreement | None:
    """Score fields read and static depth for one entry; its disagreement, if any."""
    if not entry.accessed or (entry.fields is None and not entry.depth_labelled):
        return None
    predicted = analysis.fields_read
    for scope in ("overall", entry.language):
        if entry.fields is not None:
            counts = field_scores.get(scope, Counts())
            for name in sorted(entry.fields | predicted):
                counts = counts.add(name in entry.fields, name in predicted)
            field_scores[scope] = counts
        if entry.depth_labelled:
            depth = depth_scores.get(scope, DepthCounts())
            depth_scores[scope] = depth.add(entry.static_depth, analysis.static_depth)
    missing = tuple(sorted(entry.fields - predicted)) if entry.fields is not None else ()
    extra = tuple(sorted(predicted - entry.fields)) if entry.fields is not None else ()
    depth_wrong = entry.depth_labelled and entry.static_depth != analysis.static_depth
    if not (missing or extra or depth_wrong):
        return None
    return FieldDisagreement(
        id=entry.id,
        language=entry.language,
        missing_fields=missing,
        extra_fields=extra,
        label_depth=entry.static_depth,
        predicted_depth=analysis.static_depth,
        depth_labelled=entry.depth_labelled,
        note=entry.note,
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
    labels = f"labels `{report.labels_path}`; " if report.labels_path else ""
    out = [
        "## History-access detector: ours vs the runtime's regex baseline",
        "",
        f"Corpus `{report.corpus_dir}`; {labels}reference logs "
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
    out += _fields_section(report)
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


def _fields_section(report: EvalReport) -> list[str]:
    """Fields read and static depth: our scores per scope, then every disagreement."""
    out = [
        "",
        "### Fields read and static depth (ours)",
        "",
        "| scope | fields P | fields R | fields F1 | fields TP/FP/FN "
        "| depth accuracy | depth exact/labelled | bounded exact/labelled "
        "| null exact/labelled |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for scope in SCOPES:
        if scope not in report.field_scores and scope not in report.depth_scores:
            continue
        c, d = report.field_counts(scope), report.depth_counts(scope)
        out.append(
            f"| {scope} | {_pct(c.precision)} | {_pct(c.recall)} | {_pct(c.f1)} "
            f"| {c.tp}/{c.fp}/{c.fn} | {_pct(d.accuracy)} | {d.correct}/{d.total} "
            f"| {d.bounded_correct}/{d.bounded_total} "
            f"| {d.unbounded_correct}/{d.unbounded_total} |"
        )
    out += [
        "",
        "Fields: micro-averaged over (program, field) pairs of programs labelled "
        "`accessed` with a `fields` label. Depth: exact match of `static_depth` "
        "(bounded: labelled with a number; null: labelled unbounded or no record read).",
        "",
        f"Field or depth disagreements: {len(report.field_disagreements)}",
        "",
    ]
    for f in report.field_disagreements:
        parts = []
        if f.missing_fields:
            parts.append("missed " + ", ".join(f.missing_fields))
        if f.extra_fields:
            parts.append("extra " + ", ".join(f.extra_fields))
        if f.depth_labelled and f.label_depth != f.predicted_depth:
            parts.append(f"depth: label {f.label_depth}, ours {f.predicted_depth}")
        out.append(f"- `{f.id}`: {'; '.join(parts)} ({f.note})")
    return out


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
