"""Goal switches from transcript text: which user turns start, continue, leave or return to a goal.

A live runtime declares its needs; a transcript has none, so replay detects
them. A detector looks at the conversation up to a user turn and says what
that turn does to the user's goals (:class:`Switch`). Annotations win (a
``need`` field on a user message), then a caller's callable, then the
default local heuristic (:class:`HeuristicDetector`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from recurscope.instrumentation.goals import need_similarity

__all__ = [
    "REASONS",
    "GoalSwitchDetector",
    "HeuristicDetector",
    "Reason",
    "Switch",
]

Reason = Literal["first_need", "same_task", "new_goal", "return"]
REASONS: Final = ("first_need", "same_task", "new_goal", "return")


@dataclass(frozen=True, slots=True)
class Switch:
    """What one user turn does to the goals.

    ``returns_to`` is the message index of the first user turn of the goal
    returned to (``reason == "return"`` only); ``goal_start`` the message
    index of the first user turn of the goal this turn belongs to after it
    (itself for ``first_need``/``new_goal``).
    """

    reason: Reason
    goal_start: int
    returns_to: int | None = None


class GoalSwitchDetector(Protocol):
    """Classifies user turn ``turn`` of ``messages`` (everything before it is context)."""

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        """``earlier``: the switches of the user turns before ``turn``, oldest first."""
        ...


SwitchCallable = Callable[[Sequence[Mapping[str, Any]], int, Sequence[Switch]], Switch]


class HeuristicDetector:
    """The default detector: local, no network. (A first version: need similarity only.)"""

    def __init__(self, similarity_threshold: float = 0.5) -> None:
        self.similarity_threshold = similarity_threshold

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        text = str(messages[turn].get("content") or "")
        if not earlier:
            return Switch("first_need", turn)
        current = earlier[-1].goal_start
        if need_similarity(text, str(messages[current].get("content") or "")) >= (
            self.similarity_threshold
        ):
            return Switch("same_task", current)
        starts = sorted({s.goal_start for s in earlier} - {current})
        for start in reversed(starts):
            content = str(messages[start].get("content") or "")
            if need_similarity(text, content) >= self.similarity_threshold:
                return Switch("return", start, returns_to=start)
        return Switch("new_goal", turn)
