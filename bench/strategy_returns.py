"""What each trim strategy removes of the goals users return to, on labelled conversations.

The labelled goal-switch sets (``data/goal-switches/{dev,heldout}``) say, turn
by turn, where the user started a new goal, re-asked the same task or came
back to an earlier goal. Replaying them with those labels as the detector
(not the heuristic, whose errors would blur the comparison) measures what
each strategy would have removed from the earlier turns of a returned-to
goal, at several budgets — the measurement behind the ``goal_return``
strategy (docs/decisions.md, "A fourth strategy").

    .venv/bin/python bench/strategy_returns.py                 # budgets 150 200 300
    .venv/bin/python bench/strategy_returns.py --budgets 250 --markdown
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from recurscope.pipeline.replay.conversations import read_conversations
from recurscope.pipeline.replay.goal_detect import Switch
from recurscope.pipeline.replay.replay import Replayer

ROOT = Path(__file__).resolve().parent.parent
SETS = (ROOT / "data" / "goal-switches" / "dev", ROOT / "data" / "goal-switches" / "heldout")
_REASONS = {"first_need": "first_need", "new_goal": "new_goal", "same_task": "same_task"}


class LabelDetector:
    """Answers each user turn with its label (conversations matched by their first message)."""

    def __init__(self, files: Sequence[Path]) -> None:
        self.labels: dict[str, dict[int, Mapping[str, Any]]] = {}
        for file in files:
            for line in file.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                key = entry["messages"][0]["content"]
                self.labels[key] = {label["turn"]: label for label in entry["labels"]}

    def __call__(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        label = self.labels[str(messages[0]["content"])][turn]
        reason = label["reason"]
        if reason == "return":
            return Switch("return", label["returns_to"], label["returns_to"])
        if reason == "same_task":
            return Switch("same_task", earlier[-1].goal_start)
        return Switch(_REASONS[reason], turn)


def measure(budgets: Sequence[int]) -> list[dict[str, Any]]:
    files = [folder / "conversations.jsonl" for folder in SETS if folder.exists()]
    found = read_conversations([str(f) for f in files])
    detector = LabelDetector(files)
    rows = []
    for budget in budgets:
        replayer = Replayer(tracer_provider=None, budget=budget, detector=detector)
        for conversation in found.conversations:
            replayer.replay(conversation)
        report = replayer.report()
        for t in report.totals:
            rows.append(
                {
                    "budget": budget,
                    "strategy": t.strategy,
                    "compaction": "on" if t.compaction else "off",
                    "conversations": report.conversations,
                    "returns": t.returns,
                    "returned_goal_size": t.returned_goal_size,
                    "returned_goal_removed": t.returned_goal_removed_size,
                    "dropped": t.dropped_size,
                    "summarized": t.summarized_size,
                    "stale_asks_dropped": t.stale_asks_dropped,
                    "goal_first_turn_removed": t.goal_first_turns_removed,
                }
            )
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| budget | strategy | compaction | returns | returned-goal removed | dropped | "
        "summarized | stale asks dropped | goal 1st turn removed |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        share = (
            r["returned_goal_removed"] / r["returned_goal_size"] if r["returned_goal_size"] else 0
        )
        lines.append(
            f"| {r['budget']} | {r['strategy']} | {r['compaction']} | {r['returns']} | "
            f"{r['returned_goal_removed']:,} of {r['returned_goal_size']:,} ({share:.0%}) | "
            f"{r['dropped']:,} | {r['summarized']:,} | {r['stale_asks_dropped']} | "
            f"{r['goal_first_turn_removed']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[150, 200, 300])
    parser.add_argument("--markdown", action="store_true", help="a Markdown table (default JSON)")
    args = parser.parse_args(argv)
    rows = measure(args.budgets)
    if args.markdown:
        sys.stdout.write(markdown(rows))
    else:
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
