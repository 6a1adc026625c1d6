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
    "INTERVAL_METHODS",
    "Interval",
    "bca_interval",
    "bootstrap_differences",
    "bootstrap_ratios",
    "exact_interval",
    "further_sessions",
    "interval_from_samples",
    "jackknife_ratios",
    "percentile_interval",
    "ratio_of_sums",
    "session_intervals",
    "studentized_interval",
]

FloatArray = npt.NDArray[np.float64]

INTERVAL_METHODS: Final = ("percentile", "bca", "studentized")
"""Interval constructions a pre-registration may name in ``[bootstrap] interval``."""

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
    method: str = "percentile"

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


def _resampled_sums(columns: FloatArray, *, resamples: int, seed: int) -> FloatArray:
    """Per-resample sums of each column of per-session ``columns``: ``resamples x columns``.

    Every column sees the same resamples (one multiplicity matrix), so
    numerators, denominators and any other per-session sums stay paired.
    """
    sessions = columns.shape[0]
    rng = np.random.default_rng(seed)
    chunk = max(1, min(resamples, _CHUNK_CELLS // max(1, sessions)))
    sums = np.empty((resamples, columns.shape[1]))
    for start in range(0, resamples, chunk):
        rows = min(chunk, resamples - start)
        counts = _resample_counts(rng, sessions, rows)
        sums[start : start + rows] = counts @ columns
    return sums


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
    sums = _resampled_sums(np.hstack([num, den]), resamples=resamples, seed=seed)
    num_sums, den_sums = sums[:, : num.shape[1]], sums[:, num.shape[1] :]
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


def _normal_ppf(p: npt.ArrayLike) -> FloatArray:
    from scipy.special import ndtri

    return np.asarray(ndtri(p), dtype=np.float64)


def _normal_cdf(x: npt.ArrayLike) -> FloatArray:
    from scipy.special import ndtr

    return np.asarray(ndtr(x), dtype=np.float64)


def jackknife_ratios(numerators: npt.ArrayLike, denominators: npt.ArrayLike) -> FloatArray:
    """Leave-one-session-out ratios of sums, ``sessions x criteria`` (NaN where nothing is left).

    Closed form, O(sessions): leaving session i out gives
    ``(N − n_i) / (D − d_i)``. (A generic jackknife recomputes the statistic
    n times over n − 1 sessions, O(n²), which is what makes a library BCa
    impractical for a hundred thousand sessions.)
    """
    num = _as_matrix(numerators)
    den = _as_matrix(denominators)
    rest_num = num.sum(axis=0) - num
    rest_den = den.sum(axis=0) - den
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios: FloatArray = np.where(rest_den > 0, rest_num / rest_den, np.nan)
    return ratios


def bca_interval(
    samples: npt.ArrayLike, estimate: float, jackknife: npt.ArrayLike, confidence: float
) -> tuple[float | None, float | None, int]:
    """Bias-corrected and accelerated (BCa) interval from bootstrap ``samples``: (lower, upper, used).

    Efron (1987); the same construction as ``scipy.stats.bootstrap(method="BCa")``:
    bias correction ``z0 = Φ⁻¹(share of samples below the estimate)`` (ties
    count half, so a discrete ratio is not pushed to one side), acceleration
    from the session jackknife ``a = Σ(θ̄ − θᵢ)³ / (6 (Σ(θ̄ − θᵢ)²)^1.5)``, and
    the percentiles ``Φ(z0 + (z0 + z) / (1 − a (z0 + z)))`` for ``z`` at each
    tail. Falls back to the percentile interval when the correction is
    undefined (every sample on one side of the estimate, or a jackknife with
    no spread): such intervals have no width to correct.
    """
    values = np.asarray(samples, dtype=np.float64)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return None, None, 0
    tail = (1 - confidence) / 2
    below = np.count_nonzero(values < estimate) + 0.5 * np.count_nonzero(values == estimate)
    share = below / values.size
    theta = np.asarray(jackknife, dtype=np.float64)
    theta = theta[np.isfinite(theta)]
    spread = theta.mean() - theta if theta.size else theta
    denominator = 6.0 * float(np.sum(spread**2)) ** 1.5
    if not 0 < share < 1 or denominator == 0:
        return percentile_interval(values, confidence)
    acceleration = float(np.sum(spread**3)) / denominator
    z0 = float(_normal_ppf(share))
    z = _normal_ppf([tail, 1 - tail])
    adjusted = _normal_cdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
    lower, upper = np.quantile(values, adjusted)
    return float(lower), float(upper), int(values.size)


def studentized_interval(
    samples: npt.ArrayLike,
    sample_errors: npt.ArrayLike,
    estimate: float,
    error: float,
    confidence: float,
    bounds: tuple[float, float],
) -> tuple[float | None, float | None, int]:
    """Bootstrap-t interval: ``estimate − t*·error`` at each tail, clipped to ``bounds``.

    ``t* = (θ* − θ̂) / se*`` per resample, with ``se*`` the resample's own
    linearized standard error. A resample with no spread (``se* = 0``) has
    an infinite t and widens the interval rather than being dropped;
    ``bounds`` (the range of the session ratios, which a ratio of sums never
    leaves) keeps the result finite.
    """
    values = np.asarray(samples, dtype=np.float64)
    errors = np.asarray(sample_errors, dtype=np.float64)
    keep = np.isfinite(values)
    values, errors = values[keep], errors[keep]
    if values.size == 0:
        return None, None, 0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (values - estimate) / errors
    t = np.where(np.isnan(t), 0.0, t)
    tail = (1 - confidence) / 2
    t_low, t_high = np.quantile(t, [tail, 1 - tail], method="inverted_cdf")
    lower = estimate - t_high * error if np.isfinite(t_high) else bounds[0]
    upper = estimate - t_low * error if np.isfinite(t_low) else bounds[1]
    lower = float(np.clip(lower, *bounds))
    upper = float(np.clip(upper, *bounds))
    return lower, upper, int(values.size)


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
    method: str = "percentile",
) -> dict[str, Interval]:
    """Intervals for every criterion (column) from one shared set of session resamples.

    ``confidence`` maps each criterion to its level (e.g. Bonferroni-adjusted
    for primary criteria, 0.95 for descriptive ones). ``method`` is one of
    :data:`INTERVAL_METHODS`: ``percentile``, ``bca`` (bias-corrected and
    accelerated, session jackknife) or ``studentized`` (bootstrap-t with the
    linearized standard error of a ratio of sums). The same seed draws the
    same resamples whatever the method.
    """
    if method not in INTERVAL_METHODS:
        raise ValueError(f"interval method must be one of {', '.join(INTERVAL_METHODS)}")
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    num = _as_matrix(numerators)
    den = _as_matrix(denominators)
    if num.shape != den.shape:
        raise ValueError("numerators and denominators must have the same shape")
    width = num.shape[1]
    if width != len(criteria):
        raise ValueError("one column per criterion expected")
    columns = [num, den]
    if method == "studentized":
        columns += [num * num, num * den, den * den]
    if num.shape[0]:
        sums = _resampled_sums(np.hstack(columns), resamples=resamples, seed=seed)
    else:
        sums = np.zeros((resamples, width * len(columns)))
    part = [sums[:, i * width : (i + 1) * width] for i in range(len(columns))]
    with np.errstate(divide="ignore", invalid="ignore"):
        samples = np.where(part[1] > 0, part[0] / part[1], np.nan)
    jackknife = jackknife_ratios(num, den) if method == "bca" and num.shape[0] else None
    result: dict[str, Interval] = {}
    for j, name in enumerate(criteria):
        n, d, level = num[:, j], den[:, j], confidence[name]
        estimate = ratio_of_sums(n, d)
        if estimate is None:
            lower = upper = None
            used = 0
        elif method == "bca":
            assert jackknife is not None
            lower, upper, used = bca_interval(samples[:, j], estimate, jackknife[:, j], level)
        elif method == "studentized":
            lower, upper, used = _studentized(n, d, estimate, [p[:, j] for p in part], level)
        else:
            lower, upper, used = percentile_interval(samples[:, j], level)
        result[name] = Interval(
            estimate=estimate,
            lower=lower,
            upper=upper,
            confidence=level,
            numerator=float(n.sum()),
            denominator=float(d.sum()),
            sessions=int(np.count_nonzero(d)),
            sessions_total=int(d.size),
            resamples=used,
            method=method,
        )
    return result


def _studentized(
    num: FloatArray,
    den: FloatArray,
    estimate: float,
    sums: list[FloatArray],
    confidence: float,
) -> tuple[float | None, float | None, int]:
    """Bootstrap-t bounds of one criterion from its resampled sums (n, d, n², nd, d²)."""
    s_n, s_d, s_nn, s_nd, s_dd = sums
    error = math.sqrt(float(np.sum((num - estimate * den) ** 2))) / float(den.sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        theta = np.where(s_d > 0, s_n / s_d, np.nan)
        variance = (s_nn - 2 * theta * s_nd + theta**2 * s_dd) / s_d**2
    errors = np.sqrt(np.clip(variance, 0, None))
    # Rounding leaves ~1e-17 where a resample has no spread: treat it as none.
    errors = np.where(errors > 1e-12 * np.maximum(1.0, np.abs(theta)), errors, 0.0)
    contributing = den > 0
    ratios = num[contributing] / den[contributing]
    return studentized_interval(
        theta, errors, estimate, error, confidence, (float(ratios.min()), float(ratios.max()))
    )


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
