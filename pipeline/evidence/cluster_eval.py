"""Score near-duplicate clustering against labelled clone families.

A families folder holds programs (``python/*.py``, ``ruby/*.rb``) and
``families.json``: one entry per program with its ``family`` (programs that do
the same thing to the history, re-spelled) and, for hard negatives,
``hard_negative_of`` (the family it imitates while computing something else).
:func:`evaluate_families` sketches every program with the instrumentation's
analyser, clusters the sketches with the evidence SQL (``clusters.py``, on an
in-memory DuckDB, programs visited in file order) and reports:

- pairwise precision and recall: over all pairs of programs, a pair is
  positive when both are in one family, predicted when both are in one cluster;
- cluster purity: the share of programs in their cluster's largest family;
- hard negatives merged with the family they imitate.

``data/clone-families/dev`` was written and used to choose the method;
``data/clone-families/heldout`` was written afterwards, blind to the method,
and committed (hashed) before it was first run. See docs/detector.md.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Final

import duckdb

from recurscope.instrumentation.analysis import analyze_code, program_sketch

from ..errors import PipelineError
from .clusters import REGISTRY, ClusterSettings, assign_shape_clusters
from .models import install_dialect

__all__ = ["ClusterEval", "FamiliesError", "evaluate_families", "format_markdown"]

_EPOCH: Final = datetime(2026, 1, 1)


class FamiliesError(PipelineError):
    """The families folder cannot be read (missing file, bad JSON, hash mismatch)."""


@dataclass(frozen=True, slots=True)
class Program:
    id: str
    language: str
    family: str
    hard_negative_of: str | None
    fingerprint: str | None
    sketch: str | None


@dataclass(slots=True)
class ClusterEval:
    """The scores of one clustering of one families folder."""

    folder: str
    set_name: str
    similarity: float
    programs: int
    families: int
    hard_negatives: int
    without_sketch: list[str]
    clusters: int
    true_pairs: int
    predicted_pairs: int
    correct_pairs: int
    purity: float
    hard_negatives_merged: list[str]
    exact_predicted_pairs: int = 0  # the baseline: pairs with one exact fingerprint
    exact_correct_pairs: int = 0
    by_language: dict[str, dict[str, Any]] = field(default_factory=dict)
    sweep: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        return self.correct_pairs / self.predicted_pairs if self.predicted_pairs else None

    @property
    def recall(self) -> float | None:
        return self.correct_pairs / self.true_pairs if self.true_pairs else None

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["precision"] = self.precision
        out["recall"] = self.recall
        return out


def load_programs(folder: str | Path) -> tuple[str, list[Program]]:
    """Read ``families.json`` and sketch each program; raises :class:`FamiliesError`."""
    root = Path(folder)
    index = root / "families.json"
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
        entries = data["entries"]
    except FileNotFoundError:
        raise FamiliesError(f"{index}: not found (a families folder holds families.json)") from None
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise FamiliesError(f"{index}: not a families file ({exc})") from None
    programs = []
    for n, entry in enumerate(entries):
        try:
            source = root / str(entry["source"]).removeprefix("file:")
            code = source.read_bytes()
            if hashlib.sha256(code).hexdigest() != entry["code_sha256"]:
                raise FamiliesError(
                    f"{index}: entry {n} ({entry['id']}): {source.name} no longer matches "
                    "code_sha256 (labelled programs are pinned; label the change anew)"
                )
            text = code.decode("utf-8")
            analysis = analyze_code(text, entry["language"])
            programs.append(
                Program(
                    id=str(entry["id"]),
                    language=str(entry["language"]),
                    family=str(entry["family"]),
                    hard_negative_of=entry.get("hard_negative_of"),
                    fingerprint=analysis.fingerprint,
                    sketch=program_sketch(text, entry["language"], analysis.sketch),
                )
            )
        except (KeyError, TypeError) as exc:
            raise FamiliesError(f"{index}: entry {n} lacks a field ({exc})") from None
        except OSError as exc:
            raise FamiliesError(f"{index}: entry {n}: {exc}") from None
    return str(data.get("set", root.name)), programs


def cluster_programs(programs: list[Program], settings: ClusterSettings) -> dict[str, str]:
    """Each program's cluster id (program id -> cluster), clustered in list order."""
    con = duckdb.connect()
    try:
        install_dialect(con)
        con.execute(
            "CREATE TEMP TABLE session_fingerprints (fingerprint VARCHAR, sketch VARCHAR, "
            "example_language VARCHAR, first_seen TIMESTAMP_NS)"
        )
        # One shape per program: the program id stands in for the fingerprint,
        # so two programs with one fingerprint are still two members.
        con.executemany(
            "INSERT INTO session_fingerprints VALUES (?, ?, ?, ?)",
            [
                (p.id, p.sketch, p.language, _EPOCH + timedelta(seconds=n))
                for n, p in enumerate(programs)
            ],
        )
        assign_shape_clusters(con, settings)
        rows = con.execute(f"SELECT fingerprint, cluster_id FROM {REGISTRY}").fetchall()
    finally:
        con.close()
    return {str(fp): str(cluster) for fp, cluster in rows}


def evaluate_families(
    folder: str | Path,
    settings: ClusterSettings,
    *,
    sweep: tuple[float, ...] = (0.5, 0.6, 0.7, 0.8, 0.9),
) -> ClusterEval:
    """Cluster the folder's programs with ``settings`` and score them (plus a threshold sweep)."""
    set_name, programs = load_programs(folder)
    result = _score(str(folder), set_name, programs, settings)
    for threshold in sweep:
        other = _score(
            str(folder),
            set_name,
            programs,
            ClusterSettings(threshold, settings.band_rows, settings.band_count),
        )
        result.sweep.append(
            {
                "similarity": threshold,
                "precision": other.precision,
                "recall": other.recall,
                "purity": other.purity,
                "clusters": other.clusters,
                "hard_negatives_merged": len(other.hard_negatives_merged),
            }
        )
    return result


def _score(
    folder: str, set_name: str, programs: list[Program], settings: ClusterSettings
) -> ClusterEval:
    cluster_of = cluster_programs(programs, settings)
    family_of = {p.id: p.family for p in programs}
    counts = {"true": 0, "predicted": 0, "correct": 0}
    per_language: dict[str, Counter[str]] = {}
    for a, b in itertools.combinations(programs, 2):
        same_family = a.family == b.family
        same_cluster = cluster_of[a.id] == cluster_of[b.id]
        keys = ["overall"] + ([a.language] if a.language == b.language else [])
        for key in keys:
            c = per_language.setdefault(key, Counter())
            c["true"] += same_family
            c["predicted"] += same_cluster
            c["correct"] += same_family and same_cluster
    exact: Counter[str] = Counter()
    for a, b in itertools.combinations(programs, 2):
        if a.fingerprint is not None and a.fingerprint == b.fingerprint:
            exact["predicted"] += 1
            exact["correct"] += a.family == b.family
    overall = per_language.pop("overall", Counter())
    counts = {k: overall[k] for k in counts}
    members: dict[str, list[str]] = {}
    for program in programs:
        members.setdefault(cluster_of[program.id], []).append(family_of[program.id])
    pure = sum(Counter(fams).most_common(1)[0][1] for fams in members.values())
    merged = [
        p.id
        for p in programs
        if p.hard_negative_of is not None
        and any(
            q.family == p.hard_negative_of and cluster_of[q.id] == cluster_of[p.id]
            for q in programs
        )
    ]
    by_language = {
        language: {
            "programs": sum(p.language == language for p in programs),
            "precision": c["correct"] / c["predicted"] if c["predicted"] else None,
            "recall": c["correct"] / c["true"] if c["true"] else None,
            "true_pairs": c["true"],
            "predicted_pairs": c["predicted"],
            "correct_pairs": c["correct"],
        }
        for language, c in sorted(per_language.items())
    }
    return ClusterEval(
        folder=folder,
        set_name=set_name,
        similarity=settings.threshold,
        programs=len(programs),
        families=len({p.family for p in programs}),
        hard_negatives=sum(p.hard_negative_of is not None for p in programs),
        without_sketch=[p.id for p in programs if p.sketch is None],
        clusters=len(members),
        true_pairs=counts["true"],
        predicted_pairs=counts["predicted"],
        correct_pairs=counts["correct"],
        purity=pure / len(programs) if programs else 0.0,
        hard_negatives_merged=merged,
        exact_predicted_pairs=exact["predicted"],
        exact_correct_pairs=exact["correct"],
        by_language=by_language,
    )


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def format_markdown(results: list[ClusterEval]) -> str:
    """The scores as Markdown: one table of sets, one sweep per set."""
    lines = [
        "| set | programs | families | hard negatives | similarity | clusters | pairwise P "
        "| pairwise R | correct / predicted / true pairs | purity | hard negatives merged |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        lines.append(
            f"| {r.set_name} | {r.programs} | {r.families} | {r.hard_negatives} | "
            f"{r.similarity:g} | {r.clusters} | {_fmt(r.precision)} | {_fmt(r.recall)} | "
            f"{r.correct_pairs} / {r.predicted_pairs} / {r.true_pairs} | {_fmt(r.purity)} | "
            f"{len(r.hard_negatives_merged)} |"
        )
        exact_p = (
            r.exact_correct_pairs / r.exact_predicted_pairs if r.exact_predicted_pairs else None
        )
        lines.append(
            f"| {r.set_name}, exact fingerprints | {r.programs} | | | | | {_fmt(exact_p)} | "
            f"{_fmt(r.exact_correct_pairs / r.true_pairs if r.true_pairs else None)} | "
            f"{r.exact_correct_pairs} / {r.exact_predicted_pairs} / {r.true_pairs} | | |"
        )
        for language, s in r.by_language.items():
            lines.append(
                f"| {r.set_name}, {language} | {s['programs']} | | | | | "
                f"{_fmt(s['precision'])} | {_fmt(s['recall'])} | "
                f"{s['correct_pairs']} / {s['predicted_pairs']} / {s['true_pairs']} | | |"
            )
    for r in results:
        if not r.sweep:
            continue
        lines += [
            "",
            f"Sweep, {r.set_name}:",
            "",
            "| similarity | pairwise P | pairwise R | purity | clusters | hard negatives merged |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        lines += [
            f"| {s['similarity']:g} | {_fmt(s['precision'])} | {_fmt(s['recall'])} | "
            f"{_fmt(s['purity'])} | {s['clusters']} | {s['hard_negatives_merged']} |"
            for s in r.sweep
        ]
        if r.without_sketch:
            lines += ["", f"Without a sketch ({r.set_name}): {', '.join(r.without_sketch)}"]
    return "\n".join(lines) + "\n"
