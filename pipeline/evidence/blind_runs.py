"""The clusterer's measured error: its runs on clone families written blind to it.

Each set under ``data/clone-families/`` was written by a helper who never saw
the clusterer, committed (its ``families.json`` hashed) before it was run, and
run once under the sketch scheme registered at the time. Those runs are
recorded in ``data/clone-families/blind-runs.toml``. The report pools the
runs of the scheme it clusters with into pairwise precision and recall, with
the range over its sets, and shows that beside the clustered
``boilerplate_share``: a wrong merge can only raise the clustered share (a
merged cluster recurs in at least as many sessions as either part), a missed
pair can only lower it toward the exact-hash share.

Pairs of one set are not independent (a family's pairs share its programs), so
no binomial interval is given: the spread over the sets is the honest one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..errors import PipelineError

__all__ = [
    "BlindRun",
    "BlindRuns",
    "BlindRunsError",
    "default_blind_runs_path",
    "load_blind_runs",
]

DEFAULT_BLIND_RUNS: Final = Path("data") / "clone-families" / "blind-runs.toml"
_FIX: Final = (
    "fix it, or restore the record (in the repository: git checkout -- "
    "data/clone-families/blind-runs.toml; elsewhere, remove a local copy to use the one "
    "shipped with recurscope)"
)
_COUNTS: Final = ("correct_pairs", "predicted_pairs", "true_pairs", "hard_negatives_merged")


class BlindRunsError(PipelineError):
    """``blind-runs.toml`` is unreadable or a run in it is malformed; the message says which and how."""


@dataclass(frozen=True, slots=True)
class BlindRun:
    """One blind set's one run: pairs of same-family programs found, merged and labelled."""

    set: str
    families_sha256: str
    scheme: str
    preregistration_version: int
    similarity: float
    correct_pairs: int
    predicted_pairs: int
    true_pairs: int
    hard_negatives_merged: int

    @property
    def precision(self) -> float | None:
        return self.correct_pairs / self.predicted_pairs if self.predicted_pairs else None

    @property
    def recall(self) -> float | None:
        return self.correct_pairs / self.true_pairs if self.true_pairs else None


@dataclass(frozen=True, slots=True)
class BlindRuns:
    """The whole record: every run, and the targets the issue set."""

    runs: tuple[BlindRun, ...]
    target_precision: float
    target_recall: float

    def of_scheme(self, scheme: str) -> tuple[BlindRun, ...]:
        """The runs made under ``scheme``, in file order."""
        return tuple(r for r in self.runs if r.scheme == scheme)


def default_blind_runs_path() -> Path:
    """``data/clone-families/blind-runs.toml`` in the current folder, else the one shipped with the code."""
    if DEFAULT_BLIND_RUNS.exists():
        return DEFAULT_BLIND_RUNS
    shipped = Path(__file__).resolve().parents[2] / DEFAULT_BLIND_RUNS  # recurscope/data/
    return shipped if shipped.exists() else DEFAULT_BLIND_RUNS


def load_blind_runs(path: str | Path | None = None) -> BlindRuns | None:
    """The record at ``path`` (default :func:`default_blind_runs_path`); ``None`` when there is none.

    Raises :class:`BlindRunsError` naming the file, the run and the field when
    it cannot be read or a run is malformed.
    """
    file = Path(path) if path is not None else default_blind_runs_path()
    if not file.is_file():
        return None
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise BlindRunsError(
            f"{file}: cannot read the clusterer's blind runs ({error}); {_FIX}"
        ) from error
    runs = data.get("runs", [])
    try:
        if not isinstance(runs, list):
            raise BlindRunsError(f"{file}: 'runs' must be an array of tables ([[runs]])")
        return BlindRuns(
            runs=tuple(_run(file, n, run) for n, run in enumerate(runs, start=1)),
            target_precision=_fraction(
                file, "target_precision", data.get("target_precision", 0.95)
            ),
            target_recall=_fraction(file, "target_recall", data.get("target_recall", 0.9)),
        )
    except BlindRunsError as error:
        raise BlindRunsError(f"{error}; {_FIX}") from None


def _run(file: Path, n: int, run: Any) -> BlindRun:
    where = f"{file}: run {n}"
    if not isinstance(run, Mapping):
        raise BlindRunsError(f"{where} must be a table ([[runs]])")
    texts: dict[str, str] = {}
    for key in ("set", "families_sha256", "scheme"):
        value = run.get(key)
        if not isinstance(value, str) or not value.strip():
            raise BlindRunsError(f"{where}: '{key}' must be non-empty text")
        texts[key] = value
    counts: dict[str, int] = {}
    for key in (*_COUNTS, "preregistration_version"):
        value = run.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BlindRunsError(f"{where} ({texts['set']}): '{key}' must be a whole number >= 0")
        counts[key] = value
    if counts["correct_pairs"] > min(counts["predicted_pairs"], counts["true_pairs"]):
        raise BlindRunsError(
            f"{where} ({texts['set']}): correct_pairs cannot exceed predicted_pairs or true_pairs"
        )
    similarity = run.get("similarity")
    if isinstance(similarity, bool) or not isinstance(similarity, int | float):
        raise BlindRunsError(f"{where} ({texts['set']}): 'similarity' must be a number")
    return BlindRun(
        set=texts["set"],
        families_sha256=texts["families_sha256"],
        scheme=texts["scheme"],
        preregistration_version=counts["preregistration_version"],
        similarity=_fraction(file, f"run {n} similarity", similarity),
        correct_pairs=counts["correct_pairs"],
        predicted_pairs=counts["predicted_pairs"],
        true_pairs=counts["true_pairs"],
        hard_negatives_merged=counts["hard_negatives_merged"],
    )


def _fraction(file: Path, what: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise BlindRunsError(f"{file}: {what} must be a number from 0 to 1")
    return float(value)
