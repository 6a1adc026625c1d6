"""The measurement behind the goal_return strategy (docs/decisions.md), pinned.

Replays the labelled goal-switch sets with their labels as the detector and
checks the figures the decision record quotes at a 200-token budget.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from strategy_returns import markdown, measure  # noqa: E402


@pytest.mark.slow
def test_goal_return_keeps_what_users_come_back_for() -> None:
    rows = {(r["strategy"], r["compaction"]): r for r in measure([200])}
    assert {r["returns"] for r in rows.values()} == {175}
    removed = {key: r["returned_goal_removed"] for key, r in rows.items()}
    assert removed[("goal_aware", "off")] == 6_064
    assert removed[("goal_return", "off")] == 343
    # The others remove 42-58% of the returned-to goals' earlier turns; goal_return 2-6%.
    size = rows["goal_aware", "off"]["returned_goal_size"]
    for (strategy, _), lost in removed.items():
        share = lost / size
        assert (share < 0.065) if strategy == "goal_return" else (0.415 <= share < 0.585)
    # At about the same total removed.
    assert abs(rows["goal_return", "off"]["dropped"] - rows["goal_aware", "off"]["dropped"]) < 200
    docs = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    for line in markdown(measure([200])).splitlines()[2:]:
        assert line in docs
