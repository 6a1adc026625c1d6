"""Goal switches from transcript text: which user turns start, continue, leave or return to a goal.

A live runtime declares its needs; a transcript has none, so replay detects
them. A detector looks at the conversation up to a user turn and says what
that turn does to the user's goals (:class:`Switch`). Annotations win (a
``need`` field on a user message), then a caller's callable, then the
default local heuristic (:class:`HeuristicDetector`).

The heuristic compares the new user turn with each goal so far as a whole
*exchange* — the goal's user turns and the answers they got, since a return
often names something only an answer said ("the festival") — by the
share of the turn's IDF-weighted Snowball-stemmed content words that the
goal's exchanges contain, IDF taken over the conversation's messages so far. Follow-up cues count as evidence: a turn
opening with "and", "also", "what about"... leans to an earlier topic it
shares words with rather than to a fresh goal, and "back to", "going back",
"returning to" say outright that it returns. See ``docs/goals.md`` for the
labelled sets and the measured precision and recall.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

import snowballstemmer

__all__ = [
    "REASONS",
    "GoalSwitchDetector",
    "HeuristicDetector",
    "Reason",
    "Switch",
    "SwitchCallable",
    "goal_exchanges",
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
    """Classifies user turn ``turn`` of ``messages`` (everything before it is context).

    In a replay ``messages`` also holds the answer the turn got (the messages up
    to the next user turn), which a detector may read; never a later user turn.
    """

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        """``earlier``: the switches of the user turns before ``turn``, oldest first."""
        ...


SwitchCallable = Callable[[Sequence[Mapping[str, Any]], int, Sequence[Switch]], Switch]

_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_STOP: Final = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just let me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own please same she should so some such than thank thanks
    that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would
    you your yours yourself yourselves ok okay yes yeah sure great cool tell give get make want
    need know like one two also still really much many well way thing things something
    anything go going back again""".split()  # noqa: SIM905 (a word list reads better as text)
)
# A turn opening like this follows up on something already said.
_FOLLOW_UP: Final = re.compile(
    r"^\s*(?:and|also|plus|what about|how about|what of|and what|and how|and the|but|so|"
    r"about the|regarding|as for|on the|for the|then|ok(?:ay)?,? and|oh,? and)\b",
    re.IGNORECASE,
)
# ...and this says outright that it returns to an earlier topic.
_RETURN_CUE: Final = re.compile(
    r"\b(?:back to|going back|go back|returning to|return to|coming back to|earlier|"
    r"before we|you mentioned|you said|as you said|from before|the first|that one|"
    r"the other one|previous)\b",
    re.IGNORECASE,
)
_REFERENCE: Final = re.compile(
    r"\b(?:it|its|that|those|these|they|them|there|the same|this one|that one)\b", re.IGNORECASE
)


def _stemmer() -> Any:
    return snowballstemmer.stemmer("english")


_STEM: Final = _stemmer()


def terms(text: str) -> list[str]:
    """Stemmed content words of ``text`` (lowercase, stop words dropped)."""
    return list(_terms(text))


@functools.lru_cache(maxsize=65_536)
def _terms(text: str) -> tuple[str, ...]:
    # Cached: every turn re-reads the conversation so far, so each message is
    # stemmed once, not once per later turn (linear, not quadratic, in turns).
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1]
    return tuple(_STEM.stemWords(words))


def _text(message: Mapping[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""


def goal_exchanges(
    messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
) -> Iterator[tuple[int, int, range]]:
    """Each user turn before ``turn`` as ``(goal_start, its index, the answers it got)``.

    ``earlier`` are those turns' switches, oldest first; the answers are the
    messages after the user turn up to the next user turn (or ``turn``).
    """
    user_turns = [i for i in range(turn) if messages[i].get("role") == "user"]
    for position, (index, switch) in enumerate(zip(user_turns, earlier, strict=False)):
        end = user_turns[position + 1] if position + 1 < len(user_turns) else turn
        yield switch.goal_start, index, range(index + 1, end)


def _coverage(query: Mapping[str, float], doc: frozenset[str]) -> float:
    """The share of the query's IDF weight whose terms the goal's exchanges contain.

    Asymmetric on purpose: a short follow-up against a long exchange is
    scored by how much of *what it says* the exchange already said (a
    cosine would dilute it by the exchange's length).
    """
    total = sum(query.values())
    if not total:
        return 0.0
    return sum(weight for term, weight in query.items() if term in doc) / total


@dataclass(frozen=True, slots=True)
class HeuristicDetector:
    """The default detector: IDF-weighted overlap with exchanges, stemming, cues; local, offline.

    The turn's overlap with each goal is the share of its IDF weight found in
    that goal's exchanges. It returns to the earliest-best earlier goal when
    that overlap reaches ``return_threshold`` and beats the current goal's by
    ``margin`` (or, for a follow-up or a "back to ...", beats it at all);
    else it continues the current goal when their overlap reaches
    ``same_threshold`` or it has nothing of its own to go on; else it starts
    a new goal.

    Thresholds were chosen on the development conversations
    (``data/goal-switches/dev``) only; ``docs/goals.md`` has the figures on
    the held-out set.
    """

    same_threshold: float = 0.3
    """Overlap with the current goal at or above which a turn continues it."""
    return_threshold: float = 0.2
    """Overlap with an earlier goal at or above which a turn may return to it."""
    margin: float = 0.1
    """How much closer to an earlier goal than to the current one a return must be."""
    cue_bonus: float = 0.08
    """Added to earlier goals' scores when the turn says it returns ("back to ...")."""

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        if not earlier:
            return Switch("first_need", turn)
        text = _text(messages[turn])
        current = earlier[-1].goal_start
        goals = self._goal_documents(messages, turn, earlier)
        idf = self._idf(messages, turn)
        query = self._vector(terms(text), idf)
        scores = {start: _coverage(query, frozenset(doc)) for start, doc in goals.items()}
        follow_up = bool(_FOLLOW_UP.search(text))
        says_return = bool(_RETURN_CUE.search(text))
        current_score = scores.get(current, 0.0)
        others = {start: s for start, s in scores.items() if start != current}
        if says_return:
            others = {start: s + self.cue_bonus for start, s in others.items()}
        best = max(others, key=lambda s: (others[s], s), default=None)
        best_score = others.get(best, 0.0) if best is not None else 0.0
        if best is not None and (
            (best_score >= self.return_threshold and best_score >= current_score + self.margin)
            # A follow-up ("and ...", "back to ...") closer to an earlier goal than to
            # the current one returns to it, however little it says.
            or ((follow_up or says_return) and best_score > current_score + self.margin)
        ):
            return Switch("return", best, returns_to=best)
        if current_score >= self.same_threshold:
            return Switch("same_task", current)
        if not query or follow_up or (_REFERENCE.search(text) and len(query) <= 3):
            # Nothing of its own to go on, or it leans on what was said: the current goal.
            return Switch("same_task", current)
        return Switch("new_goal", turn)

    @staticmethod
    def _goal_documents(
        messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> dict[int, list[str]]:
        """Each goal's user turns with the answers they got, as stemmed terms."""
        docs: dict[int, list[str]] = {}
        for goal, index, answers in goal_exchanges(messages, turn, earlier):
            doc = docs.setdefault(goal, [])
            for message in (index, *answers):
                doc.extend(terms(_text(messages[message])))
        return docs

    @staticmethod
    def _idf(messages: Sequence[Mapping[str, Any]], turn: int) -> dict[str, float]:
        """Smoothed IDF over the messages up to and including ``turn``."""
        seen: Counter[str] = Counter()
        count = 0
        for message in messages[: turn + 1]:
            count += 1
            seen.update(set(terms(_text(message))))
        return {term: math.log((1 + count) / (1 + n)) + 1.0 for term, n in seen.items()}

    @staticmethod
    def _vector(words: Sequence[str], idf: Mapping[str, float]) -> dict[str, float]:
        """Each distinct term of the turn with its IDF weight."""
        return {term: idf.get(term, 1.0) for term in set(words)}
