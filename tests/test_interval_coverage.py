"""The pre-registered interval covers the truth at its adjusted level (docs/verdict.md, "Coverage").

Simulated clustered evidence with a known population ratio, at the evidence
window's minimum of 100 sessions and the Bonferroni-adjusted 98.75%. The
stated tolerance: in every scenario the error rate is at most twice nominal
(coverage >= 0.975) and the false "above threshold" rate — truth below the
lower bound, what a JUSTIFIED verdict risks — at most twice its 0.625%.
Seeds are fixed, so the result is reproducible; the percentile interval of
version 1 fails the same check, which is what the check is for.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from interval_coverage import COVERAGE_CLAIM, run_cell

from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration

pytestmark = pytest.mark.slow

SESSIONS = 100
REPLICATIONS = 1500
MIN_COVERAGE = 0.975
MAX_LOW_MISS = 0.0125


@pytest.fixture(scope="module")
def method() -> str:
    prereg = load_preregistration(default_preregistration_path())
    assert prereg.window.min_sessions == SESSIONS, "coverage is claimed at the window's minimum"
    return prereg.interval


@pytest.mark.parametrize("scenario", COVERAGE_CLAIM)
def test_the_preregistered_interval_covers_at_the_adjusted_level(
    scenario: str, method: str
) -> None:
    (cell,) = run_cell(
        scenario, SESSIONS, methods=(method,), confidence=0.9875, replications=REPLICATIONS
    )
    assert cell.no_interval == 0
    assert cell.coverage >= MIN_COVERAGE, (scenario, cell)
    assert cell.missed_low / cell.replications <= MAX_LOW_MISS, (scenario, cell)


def test_the_percentile_interval_of_version_1_fails_the_same_check() -> None:
    """The check has teeth: the method the amendment replaced under-covers a rare rate."""
    (cell,) = run_cell(
        "rare", SESSIONS, methods=("percentile",), confidence=0.9875, replications=REPLICATIONS
    )
    assert cell.coverage < MIN_COVERAGE


def test_the_preregistered_interval_is_not_bought_with_width(method: str) -> None:
    """Where percentile already covers (typical rates), the chosen method is barely wider."""
    cells = {
        c.method: c
        for c in run_cell(
            "typical", SESSIONS, methods=(method, "percentile"), replications=REPLICATIONS // 3
        )
    }
    assert cells[method].width <= 1.2 * cells["percentile"].width


def test_a_rare_bursty_criterion_needs_many_sessions_to_be_shown_below_its_threshold(
    method: str,
) -> None:
    """Goal overflow in the simulator's scenarios: truth 0.009, threshold 0.10.

    At 120 sessions the pre-registered upper bound falls under 0.10 in a minority of
    data sets (so "not justified" is out of reach, as docs/scenarios.md found); at
    1,000 sessions in nearly all. Measured: 0.17 and 0.999 (1,000 data sets each).
    """
    small, large = (
        run_cell("bursty", n, methods=(method,), replications=300, threshold=0.10)[0]
        for n in (120, 1000)
    )
    assert small.below_threshold / small.replications < 0.4
    assert large.below_threshold / large.replications > 0.95
