"""Session-level statistics: ratio of sums, seeded session bootstrap, projections."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.pipeline.verdict import stats as stats


def _per_call_bootstrap_width(successes: np.ndarray, trials: np.ndarray) -> float:
    """What a naive reviewer would compute: resample calls as if independent."""
    calls = np.concatenate(
        [
            np.r_[np.ones(int(s)), np.zeros(int(t - s))]
            for s, t in zip(successes, trials, strict=True)
        ]
    )
    rng = np.random.default_rng(0)
    means = rng.choice(calls, size=(2000, calls.size)).mean(axis=1)
    low, high = np.quantile(means, [0.025, 0.975])
    return float(high - low)


class TestRatioOfSums:
    def test_is_a_ratio_of_sums_not_a_mean_of_ratios(self) -> None:
        """One session at 1/1 and one at 0/99 give 1/100, not the 0.5 a mean of ratios gives."""
        assert stats.ratio_of_sums([1, 0], [1, 99]) == pytest.approx(0.01)

    def test_zero_denominator_has_no_estimate(self) -> None:
        """Nothing to count is not a share of 0."""
        assert stats.ratio_of_sums([0, 0], [0, 0]) is None


class TestBootstrap:
    def test_same_seed_same_resamples(self) -> None:
        """The bootstrap is reproducible to the last digit for a fixed seed."""
        num, den = np.arange(30) % 7, np.arange(30) % 7 + 3
        a = stats.bootstrap_ratios(num, den, resamples=500, seed=42)
        b = stats.bootstrap_ratios(num, den, resamples=500, seed=42)
        c = stats.bootstrap_ratios(num, den, resamples=500, seed=43)
        assert np.array_equal(a, b)
        assert not np.array_equal(a, c)

    def test_criteria_share_resamples_and_do_not_depend_on_each_other(self) -> None:
        """A criterion's interval is the same computed alone or next to others."""
        rng = np.random.default_rng(1)
        num = rng.integers(0, 5, size=(40, 3)).astype(float)
        den = num + rng.integers(0, 5, size=(40, 3))
        together = stats.bootstrap_ratios(num, den, resamples=300, seed=7)
        alone = stats.bootstrap_ratios(num[:, 1], den[:, 1], resamples=300, seed=7)
        assert np.allclose(together[:, 1], alone[:, 0], equal_nan=True)

    def test_few_sessions_of_many_identical_calls_give_a_wide_interval(self) -> None:
        """Four sessions of 1,000 identical calls are four observations, not 4,000."""
        successes = np.array([1000, 1000, 0, 0])
        trials = np.array([1000, 1000, 1000, 1000])
        samples = stats.bootstrap_ratios(successes, trials, resamples=2000, seed=3)
        interval = stats.interval_from_samples(successes, trials, samples[:, 0], 0.95)
        assert interval.estimate == pytest.approx(0.5)
        assert interval.lower is not None and interval.upper is not None
        session_width = interval.upper - interval.lower
        per_call_width = _per_call_bootstrap_width(successes, trials)
        assert session_width >= 0.5
        assert per_call_width < 0.05
        assert session_width > 10 * per_call_width

    def test_many_independent_sessions_give_a_narrow_interval(self) -> None:
        """The interval shrinks as sessions, not calls, accumulate."""
        rng = np.random.default_rng(5)
        trials = rng.integers(1, 20, size=2000)
        successes = rng.binomial(trials, 0.3)
        samples = stats.bootstrap_ratios(successes, trials, resamples=1000, seed=1)
        interval = stats.interval_from_samples(successes, trials, samples[:, 0], 0.95)
        assert interval.lower is not None and interval.upper is not None
        assert interval.upper - interval.lower < 0.03
        assert interval.lower < 0.3 < interval.upper

    def test_resamples_with_nothing_to_count_are_dropped(self) -> None:
        """A resample drawing only empty sessions has no ratio and does not enter the interval."""
        samples = stats.bootstrap_ratios([1, 0], [1, 0], resamples=400, seed=2)
        finite = np.isfinite(samples[:, 0])
        assert 0 < finite.sum() < 400
        lower, upper, used = stats.percentile_interval(samples[:, 0], 0.95)
        assert used == finite.sum() and lower == upper == 1.0

    def test_no_sessions_no_interval(self) -> None:
        """An empty scope yields no estimate and no bounds, not an error."""
        result = stats.session_intervals(
            np.zeros((0, 1)), np.zeros((0, 1)), ("x",), {"x": 0.95}, resamples=100, seed=1
        )
        assert result["x"].estimate is None and result["x"].lower is None

    def test_percentile_intervals_cover_the_truth_most_of_the_time(self) -> None:
        """Over simulated clustered data, 90% intervals cover the true share about 90% of runs."""
        rng = np.random.default_rng(11)
        covered = 0
        runs = 200
        for run in range(runs):
            sessions = 60
            p_session = rng.beta(3, 7, size=sessions)  # true mean 0.3, clustered
            trials = rng.integers(5, 40, size=sessions)
            successes = rng.binomial(trials, p_session)
            samples = stats.bootstrap_ratios(successes, trials, resamples=400, seed=run)
            low, high, _ = stats.percentile_interval(samples[:, 0], 0.90)
            assert low is not None and high is not None
            covered += low <= 0.3 <= high
        assert 0.82 <= covered / runs <= 0.97

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(
            st.tuples(st.integers(0, 50), st.integers(1, 50)).map(lambda t: (min(t), t[1])),
            min_size=1,
            max_size=25,
        )
    )
    def test_every_resampled_ratio_lies_between_the_extreme_session_ratios(
        self, rows: list[tuple[int, int]]
    ) -> None:
        """A ratio of sums is a weighted average of session ratios, so it never leaves their range."""
        num = np.array([r[0] for r in rows], dtype=float)
        den = np.array([r[1] for r in rows], dtype=float)
        ratios = num / den
        samples = stats.bootstrap_ratios(num, den, resamples=50, seed=0)[:, 0]
        assert np.all(samples >= ratios.min() - 1e-12)
        assert np.all(samples <= ratios.max() + 1e-12)


class TestDifferences:
    def test_identical_groups_differ_by_exactly_zero(self) -> None:
        """Drawing the same sessions for both groups pairs them: A − A is 0 on every resample."""
        num, den = np.array([1.0, 3, 0, 2]), np.array([2.0, 4, 1, 5])
        diffs = stats.bootstrap_differences(num, den, num, den, resamples=200, seed=1)
        assert np.all(diffs == 0)

    def test_a_real_difference_is_detected(self) -> None:
        """Group A at ~0.6 against B at ~0.2 over many sessions: the interval excludes 0."""
        rng = np.random.default_rng(4)
        trials = rng.integers(5, 15, size=300)
        a = rng.binomial(trials, 0.6)
        b = rng.binomial(trials, 0.2)
        diffs = stats.bootstrap_differences(a, trials, b, trials, resamples=500, seed=2)[:, 0]
        low, high, _ = stats.percentile_interval(diffs, 0.95)
        assert low is not None and low > 0.3 and high is not None and high < 0.5


class TestFurtherSessions:
    def _interval(
        self, estimate: float, lower: float, upper: float, sessions: int = 100, total: int = 100
    ) -> stats.Interval:
        return stats.Interval(estimate, lower, upper, 0.9875, 0, 0, sessions, total, 2000)

    def test_separated_needs_none(self) -> None:
        """An interval already clear of the threshold needs no more sessions."""
        assert stats.further_sessions(self._interval(0.3, 0.25, 0.35), 0.2) == 0

    def test_half_width_shrinks_like_one_over_root_n(self) -> None:
        """Gap 0.05 and half-width 0.1 need n((0.1/0.05)^2 − 1) = 3n more sessions."""
        k = stats.further_sessions(self._interval(0.25, 0.15, 0.35), 0.2)
        assert k == 300

    def test_scaled_by_the_share_of_sessions_that_contribute(self) -> None:
        """When half the sessions have a denominator, twice as many are needed."""
        k = stats.further_sessions(self._interval(0.25, 0.15, 0.35, sessions=100, total=200), 0.2)
        assert k == 600

    def test_uses_the_half_width_facing_the_threshold(self) -> None:
        """Below the threshold the upper half-width matters."""
        k = stats.further_sessions(self._interval(0.15, 0.14, 0.25), 0.2)
        assert k == math.ceil(100 * ((0.10 / 0.05) ** 2 - 1))

    def test_an_estimate_on_the_threshold_cannot_be_projected(self) -> None:
        """No amount of data separates an estimate sitting on the threshold."""
        assert stats.further_sessions(self._interval(0.2, 0.1, 0.3), 0.2) is None


def test_exact_interval_is_clopper_pearson() -> None:
    """36 of 36 is [0.903, 1.0] (the textbook exact bound), never a point; no trials, no interval."""
    from recurscope.pipeline.verdict.stats import exact_interval

    lower, upper = exact_interval(36, 36)
    assert lower == pytest.approx(0.9026, abs=1e-4) and upper == 1.0
    lower, upper = exact_interval(0, 10)
    assert lower == 0.0 and upper == pytest.approx(0.3085, abs=1e-4)
    assert exact_interval(0, 0) == (None, None)


class TestIntervalMethods:
    """BCa and studentized intervals next to the percentile one (docs/verdict.md, "Coverage")."""

    @staticmethod
    def _data(seed: int = 3, sessions: int = 40) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(seed)
        den = rng.gamma(2.0, 5.0, sessions)  # continuous: no ties between resamples
        num = den * rng.beta(2, 6, sessions)
        return num, den

    @pytest.mark.parametrize("method", stats.INTERVAL_METHODS)
    def test_every_method_brackets_the_estimate_and_is_reproducible(self, method: str) -> None:
        num, den = self._data()
        run = [
            stats.session_intervals(
                num, den, ("x",), {"x": 0.95}, resamples=800, seed=5, method=method
            )["x"]
            for _ in range(2)
        ]
        assert run[0] == run[1]
        i = run[0]
        assert i.method == method and i.lower is not None and i.upper is not None
        assert i.lower < i.estimate < i.upper  # type: ignore[operator]

    def test_unknown_method_is_refused(self) -> None:
        with pytest.raises(ValueError, match="studentized"):
            stats.session_intervals([1], [2], ("x",), {"x": 0.9}, resamples=10, seed=1, method="t")

    def test_jackknife_is_the_leave_one_out_ratio(self) -> None:
        num, den = np.array([1.0, 2.0, 0.0]), np.array([2.0, 2.0, 0.0])
        jack = stats.jackknife_ratios(num, den)[:, 0]
        assert jack[0] == pytest.approx(2 / 2)
        assert jack[1] == pytest.approx(1 / 2)
        assert jack[2] == pytest.approx(3 / 4)

    def test_bca_agrees_with_scipy(self) -> None:
        """Our O(n) BCa and scipy.stats.bootstrap(method="BCa", paired) agree (different draws)."""
        from scipy.stats import bootstrap

        num, den = self._data(sessions=30)
        ours = stats.session_intervals(
            num, den, ("x",), {"x": 0.95}, resamples=20_000, seed=1, method="bca"
        )["x"]
        theirs = bootstrap(
            (num, den),
            lambda n, d, axis=-1: n.sum(axis=axis) / d.sum(axis=axis),
            paired=True,
            vectorized=True,
            n_resamples=20_000,
            confidence_level=0.95,
            method="BCa",
            random_state=np.random.default_rng(2),
        ).confidence_interval
        width = theirs.high - theirs.low
        assert ours.lower == pytest.approx(theirs.low, abs=0.03 * width)
        assert ours.upper == pytest.approx(theirs.high, abs=0.03 * width)

    def test_studentized_reaches_further_above_a_rare_rate(self) -> None:
        """A rare rate's sampling distribution is right-skewed: bootstrap-t follows the skew."""
        rng = np.random.default_rng(8)
        den = 1 + rng.poisson(10, 60)
        num = rng.binomial(den, rng.beta(0.09, 2.91, 60)).astype(float)
        got = {
            m: stats.session_intervals(
                num, den, ("x",), {"x": 0.9875}, resamples=2000, seed=4, method=m
            )["x"]
            for m in ("percentile", "studentized")
        }
        assert got["studentized"].upper > got["percentile"].upper  # type: ignore[operator]
        assert got["studentized"].lower >= 0  # type: ignore[operator]

    def test_studentized_stays_within_the_session_ratios(self) -> None:
        """Resamples with no spread give an infinite t; the bounds stay finite and in range."""
        num, den = np.array([0.0, 0.0, 0.0, 3.0]), np.array([3.0, 3.0, 3.0, 3.0])
        i = stats.session_intervals(
            num, den, ("x",), {"x": 0.99}, resamples=500, seed=1, method="studentized"
        )["x"]
        assert i.lower is not None and i.upper is not None
        assert 0.0 <= i.lower <= i.estimate <= i.upper <= 1.0  # type: ignore[operator]

    def test_identical_sessions_give_a_zero_width_interval_in_every_method(self) -> None:
        num, den = np.full(20, 2.0), np.full(20, 4.0)
        for method in stats.INTERVAL_METHODS:
            i = stats.session_intervals(
                num, den, ("x",), {"x": 0.95}, resamples=200, seed=1, method=method
            )["x"]
            assert i.lower == i.upper == pytest.approx(0.5)
