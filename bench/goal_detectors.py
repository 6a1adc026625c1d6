"""Turns per second of the goal-switch detectors, as ratios to the heuristic in the same run.

Runs each detector online over the development conversations
(``data/goal-switches/dev``: 80 conversations, 382 user turns) and reports
turns/s and the ratio to the heuristic, which needs no model (its second
pass: the stemming cache, which both detectors share, is warm). The embedding
detector's model load is timed apart (it is paid once per process), and its
cold pass (every text embedded) apart from a warm one (vectors cached, the
rest of the rules only); the learned detectors embed the same texts, so only
their warm passes are timed (version 3, which also reads each turn's answer
and ranks the earlier goals, and version 2, answer-blind).

    .venv/bin/python bench/goal_detectors.py
"""

from __future__ import annotations

import time
from pathlib import Path

from recurscope.pipeline.replay.goal_detect import GoalSwitchDetector, HeuristicDetector, Switch
from recurscope.pipeline.replay.goal_embed import EmbeddingDetector, bundled_minilm
from recurscope.pipeline.replay.goal_eval import load_labelled
from recurscope.pipeline.replay.goal_learned import GoalModel, LearnedDetector

DEV = Path(__file__).resolve().parent.parent / "data" / "goal-switches" / "dev"


def turns_per_second(detector: GoalSwitchDetector) -> tuple[int, float]:
    conversations = load_labelled(DEV)
    turns = 0
    started = time.perf_counter()
    for conversation in conversations:
        earlier: list[Switch] = []
        for index, message in enumerate(conversation.messages):
            if message.get("role") == "user":
                earlier.append(detector.classify(conversation.messages, index, earlier))
                turns += 1
    return turns, turns / (time.perf_counter() - started)


def main() -> None:
    turns_per_second(HeuristicDetector())  # fills the stemming cache both detectors use
    turns, heuristic = turns_per_second(HeuristicDetector())
    started = time.perf_counter()
    embed = bundled_minilm()
    embed(["warm up"])
    load = time.perf_counter() - started
    detector = EmbeddingDetector(embed)
    _, cold = turns_per_second(detector)
    _, warm = turns_per_second(detector)
    learned = LearnedDetector(embed)
    learned._vectors = detector  # vectors cached: the model's own cost on top of them
    turns_per_second(learned)  # the last turns' answers, which no unit had embedded
    _, learned_warm = turns_per_second(learned)
    blind = LearnedDetector(embed, GoalModel.answer_blind())
    blind._vectors = detector
    _, blind_warm = turns_per_second(blind)
    print(f"{turns} user turns in {DEV.name}; model load {load:.1f} s")
    print("| detector | turns/s | ratio to heuristic |")
    print("| --- | --- | --- |")
    print(f"| heuristic | {heuristic:,.0f} | 1 |")
    print(f"| embedding, cold (every text embedded) | {cold:,.1f} | {cold / heuristic:.2g} |")
    print(f"| embedding, warm (vectors cached) | {warm:,.0f} | {warm / heuristic:.2g} |")
    print(
        f"| learned v3, warm (vectors cached) | {learned_warm:,.0f} | "
        f"{learned_warm / heuristic:.2g} |"
    )
    print(
        f"| learned v2, warm (vectors cached) | {blind_warm:,.0f} | {blind_warm / heuristic:.2g} |"
    )


if __name__ == "__main__":
    main()
