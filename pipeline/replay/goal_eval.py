"""Precision and recall of a goal-switch detector on labelled conversations.

A labelled set is JSON lines ``{"id", "messages": [{"role", "content"}],
"labels": [{"turn", "reason", "returns_to"?}]}``, one label per user
message (``data/goal-switches/*/conversations.jsonl``; formats in their
READMEs). The detector runs online, as replay runs it: each turn sees the
detector's own earlier answers, so an early mistake costs what it would
cost in a replay. A predicted return counts as correct only when it returns
to the labelled goal (``returns_to``); ``return_any_goal`` also reports
returns to the wrong earlier goal as found.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recurscope.instrumentation.goals import DEFAULT_SIMILARITY_THRESHOLD, need_similarity

from .goal_detect import REASONS, GoalSwitchDetector, HeuristicDetector, Switch

__all__ = ["GoalEval", "NeedSimilarityBaseline", "ReasonScore", "evaluate_goals", "load_labelled"]


class NeedSimilarityBaseline:
    """The instrumentation's ``NeedTracker`` rule on user turns: the baseline to beat.

    Character-trigram similarity of the turn with the current goal's first
    turn (same task at or above the tracker's threshold), else with earlier
    goals' first turns (a return), else a new goal: what feeding a
    transcript's user turns to ``NeedTracker`` does.
    """

    def __init__(self, threshold: float = DEFAULT_SIMILARITY_THRESHOLD) -> None:
        self.threshold = threshold

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        text = str(messages[turn].get("content") or "")
        if not earlier:
            return Switch("first_need", turn)
        current = earlier[-1].goal_start
        if need_similarity(text, str(messages[current].get("content") or "")) >= self.threshold:
            return Switch("same_task", current)
        for start in sorted({s.goal_start for s in earlier} - {current}, reverse=True):
            if need_similarity(text, str(messages[start].get("content") or "")) >= self.threshold:
                return Switch("return", start, returns_to=start)
        return Switch("new_goal", turn)


@dataclass(frozen=True, slots=True)
class Labelled:
    id: str
    messages: list[dict[str, Any]]
    labels: dict[int, tuple[str, int | None]]


@dataclass(frozen=True, slots=True)
class ReasonScore:
    """tp/fp/fn of one reason over every labelled user turn (first needs excluded)."""

    reason: str
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


@dataclass(frozen=True, slots=True)
class GoalEval:
    """Scores per reason, plus returns counted whatever goal they went back to."""

    conversations: int
    turns: int
    scores: tuple[ReasonScore, ...]
    return_any_goal: ReasonScore
    confusion: dict[tuple[str, str], int] = field(default_factory=dict)

    def score(self, reason: str) -> ReasonScore:
        return next(s for s in self.scores if s.reason == reason)


def load_labelled(path: str | Path) -> list[Labelled]:
    """The conversations of a labelled JSON-lines file (a folder: its conversations.jsonl)."""
    file = Path(path)
    if file.is_dir():
        file = file / "conversations.jsonl"
    out = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        data = json.loads(line)
        labels = {
            int(label["turn"]): (str(label["reason"]), label.get("returns_to"))
            for label in data["labels"]
        }
        out.append(Labelled(str(data.get("id", f"line-{number}")), data["messages"], labels))
    return out


def _run(detector: GoalSwitchDetector, convo: Labelled) -> Iterator[tuple[int, Switch]]:
    earlier: list[Switch] = []
    for index, message in enumerate(convo.messages):
        if message.get("role") != "user":
            continue
        switch = detector.classify(convo.messages, index, earlier)
        earlier.append(switch)
        yield index, switch


def evaluate_goals(path: str | Path, detector: GoalSwitchDetector | None = None) -> GoalEval:
    """Run ``detector`` (default: the heuristic) over a labelled set and score it."""
    detector = detector or HeuristicDetector()
    counts = {reason: [0, 0, 0] for reason in REASONS if reason != "first_need"}
    any_goal = [0, 0, 0]
    confusion: dict[tuple[str, str], int] = {}
    convos = load_labelled(path)
    turns = 0
    for convo in convos:
        for index, switch in _run(detector, convo):
            truth, target = convo.labels.get(index, ("", None))
            if truth == "first_need":
                continue
            turns += 1
            predicted = switch.reason
            confusion[(truth, predicted)] = confusion.get((truth, predicted), 0) + 1
            right = predicted == truth and (truth != "return" or switch.returns_to == target)
            for reason, tally in counts.items():
                if right and predicted == reason:
                    tally[0] += 1
                    continue
                if predicted == reason:
                    tally[1] += 1
                if truth == reason:
                    tally[2] += 1
            if predicted == "return" and truth == "return":
                any_goal[0] += 1
            elif predicted == "return":
                any_goal[1] += 1
            elif truth == "return":
                any_goal[2] += 1
    return GoalEval(
        conversations=len(convos),
        turns=turns,
        scores=tuple(ReasonScore(r, *t) for r, t in counts.items()),
        return_any_goal=ReasonScore("return (any earlier goal)", *any_goal),
        confusion=confusion,
    )


def markdown(result: GoalEval, name: str) -> str:
    """One table of the scores (for docs/goals.md and the CLI)."""
    rows = [
        f"{name}: {result.conversations} conversations, {result.turns} labelled user turns "
        "after the first",
        "",
        "| reason | precision | recall | tp / fp / fn |",
        "| --- | --- | --- | --- |",
    ]
    for score in (*result.scores, result.return_any_goal):
        p, r = score.precision, score.recall
        rows.append(
            f"| {score.reason} | {'n/a' if p is None else f'{p:.2f}'} | "
            f"{'n/a' if r is None else f'{r:.2f}'} | {score.tp} / {score.fp} / {score.fn} |"
        )
    return "\n".join(rows)


def _confusion_rows(confusion: Mapping[tuple[str, str], int]) -> Sequence[str]:
    return [f"{truth} -> {predicted}: {n}" for (truth, predicted), n in sorted(confusion.items())]
