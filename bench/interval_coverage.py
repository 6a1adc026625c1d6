"""How often do the session-bootstrap intervals cover the truth? (docs/verdict.md, "Coverage")

Simulates evidence shaped like the real thing — sessions whose own rates
differ (Beta-distributed), unequal session sizes, rare rates, criteria most
sessions say nothing about — draws many data sets with a known population
ratio, computes every interval method on each, and counts how often the
truth falls inside, and on which side it falls out. The verdict reads the
lower bound to say "justified" and the upper bound to say "not justified",
so each tail's miss rate matters on its own: at 98.75% each should be at
most 0.625%.

    python bench/interval_coverage.py                   # the table in docs/verdict.md
    python bench/interval_coverage.py --quick           # fewer replications
    python bench/interval_coverage.py --sessions 100 --scenario rare --reps 4000
    python bench/interval_coverage.py --scenario bursty --sessions 120 300 1000 3000 --threshold 0.1
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np

from recurscope.pipeline.verdict import stats as stats

Generator = Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray]]


def _beta(mean: float, concentration: float) -> tuple[float, float]:
    return mean * concentration, (1 - mean) * concentration


@dataclass(frozen=True, slots=True)
class Scenario:
    """A data-generating process: per-session numerators and denominators, and the truth."""

    name: str
    description: str
    draw: Generator
    truth: float


def _typical(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    size = 1 + rng.poisson(8, n)
    rate = rng.beta(*_beta(0.3, 4), n)
    return rng.binomial(size, rate).astype(float), size.astype(float)


def _skewed_sizes(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    size = np.ceil(rng.lognormal(1.5, 1.2, n))
    rate = rng.beta(*_beta(0.2, 2), n)
    return rng.binomial(size.astype(int), rate).astype(float), size


def _rare(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    size = 1 + rng.poisson(10, n)
    rate = rng.beta(*_beta(0.03, 3), n)
    return rng.binomial(size, rate).astype(float), size.astype(float)


def _sparse(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    size = np.where(rng.random(n) < 0.4, 1 + rng.poisson(4, n), 0)
    rate = rng.beta(*_beta(0.1, 2), n)
    return rng.binomial(size, rate).astype(float), size.astype(float)


def _bursty(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    # Shaped like goal overflow in the simulator's scenarios: most sessions have
    # boundary trims, 3% of them have any overflow, and those have a burst of it.
    size = np.where(rng.random(n) < 0.625, 1 + rng.poisson(11, n), 0)
    rate = np.where(rng.random(n) < 0.03, rng.beta(*_beta(0.3, 4), n), 0.0)
    return rng.binomial(size, rate).astype(float), size.astype(float)


def _size_correlated_rate(size: np.ndarray) -> np.ndarray:
    return 0.05 + 0.3 * (1 - np.exp(-size / 15))


def _size_correlated(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    size = np.ceil(rng.lognormal(2.0, 0.9, n))
    mean = _size_correlated_rate(size)
    rate = rng.beta(mean * 5, (1 - mean) * 5)
    return rng.binomial(size.astype(int), rate).astype(float), size


def _size_correlated_truth() -> float:
    size = np.ceil(np.random.default_rng(0).lognormal(2.0, 0.9, 4_000_000))
    return float(np.sum(size * _size_correlated_rate(size)) / np.sum(size))


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("typical", "rate Beta(mean 0.3, conc. 4); size 1+Poisson(8)", _typical, 0.3),
        Scenario(
            "skewed-sizes",
            "rate Beta(mean 0.2, conc. 2); size ceil(lognormal(1.5, 1.2))",
            _skewed_sizes,
            0.2,
        ),
        Scenario("rare", "rate Beta(mean 0.03, conc. 3); size 1+Poisson(10)", _rare, 0.03),
        Scenario(
            "sparse",
            "60% of sessions contribute nothing; rate Beta(mean 0.1, conc. 2); size 1+Poisson(4)",
            _sparse,
            0.1,
        ),
        Scenario(
            "bursty",
            "62.5% of sessions contribute, size 1+Poisson(11); 3% have any event, at rate "
            "Beta(mean 0.3, conc. 4)",
            _bursty,
            0.03 * 0.3,
        ),
        Scenario(
            "size-correlated",
            "longer sessions have higher rates; size ceil(lognormal(2, 0.9))",
            _size_correlated,
            _size_correlated_truth(),
        ),
    )
}


COVERAGE_CLAIM: tuple[str, ...] = ("typical", "skewed-sizes", "rare", "sparse", "size-correlated")
"""The scenarios docs/verdict.md claims coverage for at the window's 100 sessions.

``bursty`` is not among them: it measures how many sessions a rare criterion
concentrated in a few sessions needs before its upper bound can fall under a
threshold (docs/scenarios.md, Findings), where no interval covers at 100.
"""


@dataclass(frozen=True, slots=True)
class Cell:
    """Coverage of one method in one scenario at one size."""

    scenario: str
    sessions: int
    method: str
    confidence: float
    replications: int
    covered: int
    missed_low: int
    """Truth below the lower bound: a false "above threshold"."""
    missed_high: int
    """Truth above the upper bound: a false "below threshold"."""
    no_interval: int
    width: float
    below_threshold: int = 0
    """Data sets whose upper bound is under ``threshold``: how often "not justified" is reachable."""
    threshold: float | None = None

    @property
    def coverage(self) -> float:
        return self.covered / self.replications

    @property
    def standard_error(self) -> float:
        p = self.confidence
        return math.sqrt(p * (1 - p) / self.replications)


def run_cell(
    scenario: str,
    sessions: int,
    *,
    methods: Sequence[str] = stats.INTERVAL_METHODS,
    confidence: float = 0.9875,
    replications: int = 1000,
    resamples: int = 2000,
    seed: int = 1,
    threshold: float | None = None,
) -> list[Cell]:
    """``replications`` data sets of ``sessions`` from ``scenario``; every method on each."""
    spec = SCENARIOS[scenario]
    rng = np.random.default_rng([seed, sessions, list(SCENARIOS).index(scenario)])
    tallies = {m: [0, 0, 0, 0, 0.0, 0] for m in methods}
    for rep in range(replications):
        num, den = spec.draw(rng, sessions)
        for method in methods:
            interval = stats.session_intervals(
                num,
                den,
                ("x",),
                {"x": confidence},
                resamples=resamples,
                seed=rep,
                method=method,
            )["x"]
            tally = tallies[method]
            if interval.lower is None or interval.upper is None:
                tally[3] += 1
            elif spec.truth < interval.lower:
                tally[1] += 1
            elif spec.truth > interval.upper:
                tally[2] += 1
            else:
                tally[0] += 1
            if interval.lower is not None and interval.upper is not None:
                tally[4] += interval.upper - interval.lower
                if threshold is not None and interval.upper < threshold:
                    tally[5] += 1
    return [
        Cell(
            scenario=scenario,
            sessions=sessions,
            method=m,
            confidence=confidence,
            replications=replications,
            covered=int(t[0]),
            missed_low=int(t[1]),
            missed_high=int(t[2]),
            no_interval=int(t[3]),
            width=float(t[4]) / max(1, replications - int(t[3])),
            below_threshold=int(t[5]),
            threshold=threshold,
        )
        for m, t in tallies.items()
    ]


def _run(args: tuple[str, int], **options: object) -> list[Cell]:
    return run_cell(*args, **options)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="250 replications per cell")
    parser.add_argument("--reps", type=int, default=1000, help="replications per cell")
    parser.add_argument(
        "--sessions", type=int, nargs="*", default=[20, 50, 100, 300, 1000], help="sizes"
    )
    parser.add_argument("--scenario", nargs="*", default=list(COVERAGE_CLAIM), choices=SCENARIOS)
    parser.add_argument("--confidence", type=float, default=0.9875)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--threshold",
        type=float,
        help="also count the data sets whose upper bound is under this threshold",
    )
    options = parser.parse_args(argv)
    reps = 250 if options.quick else options.reps
    jobs = [(s, n) for s in options.scenario for n in options.sessions]
    run = partial(
        _run,
        confidence=options.confidence,
        replications=reps,
        resamples=options.resamples,
        threshold=options.threshold,
    )
    with ProcessPoolExecutor(options.workers) as pool:
        results = [c for cells in pool.map(run, jobs) for c in cells]
    print(
        f"Coverage at {options.confidence:.2%} ({reps} data sets a cell, "
        f"{options.resamples} resamples; ±{1.96 * results[0].standard_error:.4f} is 95% "
        "Monte Carlo noise at nominal). Misses: truth below the lower / above the upper bound "
        f"(each should be ≤ {(1 - options.confidence) / 2:.3%})."
    )
    print()
    below = f" upper < {options.threshold:g} |" if options.threshold is not None else ""
    print(f"| scenario | sessions | method | coverage | miss low | miss high | mean width |{below}")
    print("|---|---:|---|---:|---:|---:|---:|" + ("---:|" if below else ""))
    for c in results:
        share = f" {c.below_threshold / c.replications:.4f} |" if below else ""
        print(
            f"| {c.scenario} | {c.sessions} | {c.method} | {c.coverage:.4f} "
            f"| {c.missed_low / c.replications:.4f} | {c.missed_high / c.replications:.4f} "
            f"| {c.width:.4f} |{share}"
        )
    print()
    for spec in SCENARIOS.values():
        if spec.name in options.scenario:
            print(f"- {spec.name}: {spec.description}; truth {spec.truth:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
