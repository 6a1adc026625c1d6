"""Session-level statistics: ratios of sums and a seeded session bootstrap.

The unit of analysis is the session. Calls and plannings cluster within a
session (same model, prompt and task; once a conversation overflows every
later turn trims), so:

- an estimate is ``sum(numerators) / sum(denominators)`` over sessions — a
  ratio of sums, never a mean of per-session ratios;
- an interval resamples *sessions* with replacement and recomputes the ratio
  of sums on each resample (percentile interval). Resampling calls, or a
  Wilson interval over calls, would treat thousands of near-identical calls
  of a few sessions as independent evidence.

Everything is vectorized with numpy: one resample matrix of per-session
multiplicities serves every criterion at once, so 2,000 resamples over tens
of thousands of sessions take well under a second, and the same seed and
data give the same interval to the last digit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Interval",
    "bootstrap_differences",
    "bootstrap_ratios",
    "exact_interval",
    "further_sessions",
    "interval_from_samples",
    "percentile_interval",
    "ratio_of_sums",
    "session_intervals",
]

FloatArray = npt.NDArray[np.float64]

_CHUNK_CELLS: Final = 4_000_000
"""Resample-by-session cells generated at once: bounds memory (~32 MB); fixed, so reproducible."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A ratio-of-sums estimate with its session-bootstrap percentile interval.

    ``estimate`` is ``numerator / denominator`` (sums over sessions), ``None``
    when the denominator is 0; ``lower``/``upper`` are the percentile bounds
    at ``confidence`` (``None`` without usable resamples). ``sessions`` counts
    sessions with a non-zero denominator (those that carry information),
    ``sessions_total`` all sessions in scope. ``resamples`` is how many
    resamples had a non-zero denominator and entered the percentiles.
    """

    estimate: float | None
    lower: float | None
    upper: float | None
    confidence: float
    numerator: float
    denominator: float
    sessions: int
    sessions_total: int
    resamples: int

    @property
    def half_widths(self) -> tuple[float, float] | None:
        """(estimate − lower, upper − estimate), or ``None`` when undefined."""
        if self.estimate is None or self.lower is None or self.upper is None:
            return None
        return self.estimate - self.lower, self.upper - self.estimate


def ratio_of_sums(numerators: npt.ArrayLike, denominators: npt.ArrayLike) -> float | None:
    """``sum(numerators) / sum(denominators)``; ``None`` when the denominator sums to 0."""
    den = float(np.sum(np.asarray(denominators, dtype=np.float64)))
    if den == 0:
        return None
    return float(np.sum(np.asarray(numerators, dtype=np.float64))) / den


def _as_matrix(values: npt.ArrayLike) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2:
        raise ValueError("expected per-session values: a vector, or sessions x criteria")
    return array


def _resample_counts(rng: np.random.Generator, sessions: int, rows: int) -> FloatArray:
    """``rows`` bootstrap resamples as multiplicities: counts[r, s] = times session s drawn."""
    draws = rng.integers(0, sessions, size=(rows, sessions))
    offsets = (np.arange(rows, dtype=np.int64) * sessions)[:, None]
    flat = np.bincount((draws + offsets).ravel(), minlength=rows * sessions)
    return flat.reshape(rows, sessions).astype(np.float64)


def _resampled_sums(
    numerators: FloatArray, denominators: FloatArray, *, resamples: int, seed: int
) -> tuple[FloatArray, FloatArray]:
    """Per-resample sums of numerators and denominators, ``resamples x criteria`` each."""
    sessions = numerators.shape[0]
    rng = np.random.default_rng(seed)
    chunk = max(1, min(resamples, _CHUNK_CELLS // max(1, sessions)))
    num_sums = np.empty((resamples, numerators.shape[1]))
    den_sums = np.empty((resamples, numerators.shape[1]))
    for start in range(0, resamples, chunk):
        rows = min(chunk, resamples - start)
        counts = _resample_counts(rng, sessions, rows)
        num_sums[start : start + rows] = counts @ numerators
        den_sums[start : start + rows] = counts @ denominators
    return num_sums, den_sums


def bootstrap_ratios(
    numerators: npt.ArrayLike,
    denominators: npt.ArrayLike,
    *,
    resamples: int,
    seed: int,
) -> FloatArray:
    """Ratio of sums on each of ``resamples`` session resamples (``resamples x criteria``).

    ``numerators``/``denominators`` hold one row per session (a vector for a
    single criterion). Sessions are drawn with replacement, ``n`` per
    resample; a resample whose denominator sums to 0 gives NaN. The same
    ``seed`` and input give the same result.
    """
    num = _as_matrix(numerators)
    den = _as_matrix(denominators)
    if num.shape != den.shape:
        raise ValueError("numerators and denominators must have the same shape")
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    if num.shape[0] == 0:
        return np.full((resamples, num.shape[1]), np.nan)
    num_sums, den_sums = _resampled_sums(num, den, resamples=resamples, seed=seed)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios: FloatArray = np.where(den_sums > 0, num_sums / den_sums, np.nan)
    return ratios


def percentile_interval(
    samples: npt.ArrayLike, confidence: float
) -> tuple[float | None, float | None, int]:
    """Two-sided percentile interval of the finite ``samples``: (lower, upper, used)."""
    if not 0 < confidence < 1:
        raise ValueError("confidence must be strictly between 0 and 1")
    values = np.asarray(samples, dtype=np.float64)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return None, None, 0
    tail = (1 - confidence) / 2
    lower, upper = np.quantile(values, [tail, 1 - tail])
    return float(lower), float(upper), int(values.size)


def interval_from_samples(
    numerators: npt.ArrayLike,
    denominators: npt.ArrayLike,
    samples: npt.ArrayLike,
    confidence: float,
) -> Interval:
    """An :class:`Interval` from per-session values and their bootstrap ratios."""
    num = np.asarray(numerators, dtype=np.float64)
    den = np.asarray(denominators, dtype=np.float64)
    lower, upper, used = percentile_interval(samples, confidence)
    estimate = ratio_of_sums(num, den)
    return Interval(
        estimate=estimate,
        lower=lower if estimate is not None else None,
        upper=upper if estimate is not None else None,
        confidence=confidence,
        numerator=float(num.sum()),
        denominator=float(den.sum()),
        sessions=int(np.count_nonzero(den)),
        sessions_total=int(den.size),
        resamples=used if estimate is not None else 0,
    )


def session_intervals(
    numerators: npt.ArrayLike,
    denominators: npt.ArrayLike,
    criteria: tuple[str, ...],
    confidence: Mapping[str, float],
    *,
    resamples: int,
    seed: int,
) -> dict[str, Interval]:
    """Intervals for every criterion (column) from one shared set of session resamples.

    ``confidence`` maps each criterion to its level (e.g. Bonferroni-adjusted
    for primary criteria, 0.95 for descriptive ones).
    """
    num = _as_matrix(numerators)
    den = _as_matrix(denominators)
    if num.shape[1] != len(criteria):
        raise ValueError("one column per criterion expected")
    samples = bootstrap_ratios(num, den, resamples=resamples, seed=seed)
    return {
        name: interval_from_samples(num[:, j], den[:, j], samples[:, j], confidence[name])
        for j, name in enumerate(criteria)
    }


def bootstrap_differences(
    numerators_a: npt.ArrayLike,
    denominators_a: npt.ArrayLike,
    numerators_b: npt.ArrayLike,
    denominators_b: npt.ArrayLike,
    *,
    resamples: int,
    seed: int,
) -> FloatArray:
    """Bootstrap of ``ratio(A) − ratio(B)``, resampling sessions jointly for both groups.

    Rows are sessions of the union of both groups (zeros where a session has
    nothing in a group). Drawing the same sessions for A and B keeps a
    session that contributes to both groups (a prompt changed mid-session,
    a split date inside a session) paired with itself, so the interval
    accounts for that dependence.
    """
    num = np.hstack([_as_matrix(numerators_a), _as_matrix(numerators_b)])
    den = np.hstack([_as_matrix(denominators_a), _as_matrix(denominators_b)])
    width = num.shape[1] // 2
    ratios = bootstrap_ratios(num, den, resamples=resamples, seed=seed)
    differences: FloatArray = ratios[:, :width] - ratios[:, width:]
    return differences


def further_sessions(interval: Interval, threshold: float) -> int | None:
    """Further sessions the bootstrap suggests would separate ``interval`` from ``threshold``.

    Assumes the estimate stays put and the half-width facing the threshold
    shrinks like 1/sqrt(n): after k more contributing sessions it is
    ``w * sqrt(n / (n + k))``, which clears ``|estimate − threshold|`` once
    ``k >= n * ((w / gap)^2 − 1)``. Contributing sessions are scaled to all
    sessions by the share that contribute. 0 when already separated; ``None``
    when it cannot be projected (no estimate, no resamples, or the estimate
    equals the threshold).
    """
    widths = interval.half_widths
    if widths is None or interval.estimate is None or interval.sessions == 0:
        return None
    gap = abs(interval.estimate - threshold)
    if gap == 0:
        return None
    width = widths[0] if interval.estimate > threshold else widths[1]
    if width < gap:
        return 0
    contributing = interval.sessions * ((width / gap) ** 2 - 1)
    share = interval.sessions / max(1, interval.sessions_total)
    # The tolerance keeps float noise (0.35 - 0.25 = 0.0999...) from adding a session.
    return max(1, math.ceil(contributing / share - 1e-9))


def exact_interval(
    successes: int, trials: int, confidence: float = 0.95
) -> tuple[float | None, float | None]:
    """Clopper–Pearson (exact binomial) interval of ``successes / trials``; ``(None, None)`` if no trials.

    For detector precision and recall on the labelled corpus: "1.00" on a few
    dozen labels is an interval, not a certainty (36 of 36 gives [0.90, 1.00]).
    """
    if trials <= 0:
        return None, None
    from scipy.stats import binomtest

    ci = binomtest(int(successes), int(trials)).proportion_ci(
        confidence_level=confidence, method="exact"
    )
    return float(ci.low), float(ci.high)
