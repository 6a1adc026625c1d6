"""Goal boundaries: where the current need's turn begins, and why it moved.

A runtime records a *need* (the task the user currently wants done) before
the turn's user message is appended to the history. :class:`NeedTracker`
turns each need into a :class:`BoundaryShift` — the new goal boundary that
:func:`recurscope.instrumentation.trim.plan_trim` uses, the reason it moved,
and whether the "Goal changed" orientation marker is raised — and keeps the
state between turns. Everything here is pure logic: recording the shift as a
``recurscope.goal.boundary_shift`` span is another module's job.

The reasons distinguish shifts that look alike to the trim planner:
``same_task_reemit`` (the model re-declared the need of the task it was
already on — the boundary still moves, which is lossy and worth measuring) and
``resumed_goal`` (the user came back to an earlier goal A after B, so
goal-aware trimming would drop exactly the context the user came back for).
See docs/goals.md.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal

from opentelemetry.util.types import AttributeValue

from . import semconv

__all__ = [
    "DEFAULT_SIMILARITY_THRESHOLD",
    "BoundaryShift",
    "NeedTracker",
    "Reason",
    "need_hash",
    "need_similarity",
]

Reason = Literal["first_need", "new_goal", "same_task_reemit", "resumed_goal", "escalation"]

DEFAULT_SIMILARITY_THRESHOLD: Final = 0.5
"""Trigram similarity at or above which two needs are the same task (docs/goals.md says why)."""

# Function words carry no task identity; without removing them, two unrelated
# needs phrased alike ("fix the X" / "write the Y") share trigrams of "the".
_STOPWORD_TEXT = """
a an the and or but nor of to in on at for with by from into onto about as is are be been
was were am it its this that these those i me my we our us you your please can could would
should will shall may might must just also then so now let lets do does did
"""
_STOPWORDS: Final = frozenset(_STOPWORD_TEXT.split())

_WORD = re.compile(r"\w+")


def _normalize(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed: the form hashed and compared."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@lru_cache(maxsize=4096)
def _trigrams(text: str) -> frozenset[str]:
    words = _WORD.findall(_normalize(text))
    # A need made only of stopwords ("do it") keeps them: better than nothing.
    content = [w for w in words if w not in _STOPWORDS] or words
    grams: set[str] = set()
    for word in content:
        # pg_trgm's padding: two spaces before a word, one after, so that word
        # starts weigh more than word ends and short words still yield grams.
        padded = f"  {word} "
        grams.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return frozenset(grams)


def need_similarity(a: str, b: str) -> float:
    """Trigram Jaccard similarity of two needs' content words, in [0, 1].

    The measure is PostgreSQL ``pg_trgm``'s ``similarity()`` — the Jaccard
    index of the two sets of character trigrams, each word padded with two
    spaces before and one after — computed over the NFKC-normalized,
    case-folded words (``\\w+``) with English function words removed. It is
    lexical only (no network, no embeddings): robust to inflection, word order
    and small rewordings ("fix the failing login test" vs "fix failing login
    tests": 0.88), blind to meaning ("fix the login test" vs "fix the signup
    test" scores high). Identical normalized texts score 1.0 (two empty needs
    included); a need with no words against one with words scores 0.0.
    """
    if _normalize(a) == _normalize(b):
        return 1.0
    grams_a, grams_b = _trigrams(a), _trigrams(b)
    union = len(grams_a | grams_b)
    return len(grams_a & grams_b) / union if union else 0.0


def need_hash(need: str) -> str:
    """SHA-256 (first 16 hex digits) of the normalized need: equal needs, equal hash."""
    return hashlib.sha256(_normalize(need).encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class BoundaryShift:
    """One recorded need and the goal boundary it moved.

    Fields:
        reason: why the boundary moved — ``escalation`` when flagged, else
            ``first_need`` (no earlier need), ``same_task_reemit`` (similarity
            to the current need >= threshold), ``resumed_goal`` (an earlier,
            not the current, need matches >= threshold), or ``new_goal``.
        position: 1-based position of the need's user message: the messages
            already in history + 1 (the need is recorded before it is appended).
        boundary_from: the previous boundary (0-based index), None for the first need.
        boundary_to: the new boundary, ``position - 1`` (0-based index of the
            need's user message, what ``plan_trim(boundary=...)`` takes).
        supersedes_earlier: user turns precede the need, so their requests are
            superseded (with a bare message count: the count is > 0).
        similarity: :func:`need_similarity` to the current (previous) need;
            None for the first need.
        similarity_threshold: the tracker's threshold for "same task".
        changed_marker: this shift raises the "Goal changed" orientation
            marker: it supersedes earlier user turns and is not the same task
            as the current need (similarity below threshold).
        need_count: needs recorded so far in the session, this one included.
        need_hash: SHA-256 (16 hex digits) of the normalized need text.
        need_size: UTF-8 bytes of the need text.
        need_text: the need text; exported only with content capture on.
        resumed_need: for ``resumed_goal``, the 1-based ordinal (``need_count``)
            of the earlier need it matched; else None.

    Invariants: ``boundary_to == position - 1 >= 0``; ``similarity`` is None
    iff ``need_count == 1``; ``changed_marker`` implies ``supersedes_earlier``.
    """

    reason: Reason
    position: int
    boundary_from: int | None
    boundary_to: int
    supersedes_earlier: bool
    similarity: float | None
    similarity_threshold: float
    changed_marker: bool
    need_count: int
    need_hash: str
    need_size: int
    need_text: str
    resumed_need: int | None = None

    @property
    def same_task(self) -> bool:
        """True when the need is the same task as the current one (similarity >= threshold)."""
        return self.similarity is not None and self.similarity >= self.similarity_threshold

    def attributes(self, *, capture_content: bool = False) -> dict[str, AttributeValue]:
        """Span attributes (``recurscope.goal.*``); the need text only with ``capture_content``."""
        attrs: dict[str, AttributeValue] = {
            semconv.GOAL_REASON: self.reason,
            semconv.GOAL_POSITION: self.position,
            semconv.GOAL_BOUNDARY_TO: self.boundary_to,
            semconv.GOAL_SUPERSEDES_EARLIER: self.supersedes_earlier,
            semconv.GOAL_SIMILARITY_THRESHOLD: self.similarity_threshold,
            semconv.GOAL_CHANGED_MARKER: self.changed_marker,
            semconv.GOAL_NEED_COUNT: self.need_count,
            semconv.GOAL_NEED_HASH: self.need_hash,
            semconv.GOAL_NEED_SIZE: self.need_size,
        }
        if self.boundary_from is not None:
            attrs[semconv.GOAL_BOUNDARY_FROM] = self.boundary_from
        if self.similarity is not None:
            attrs[semconv.GOAL_SIMILARITY] = self.similarity
        if capture_content:
            attrs[semconv.GOAL_NEED_TEXT] = self.need_text
        return attrs


def _has_user_turn(history: Sequence[Mapping[str, Any]] | int) -> tuple[int, bool]:
    """(message count, whether any user message is among them), validating the argument."""
    if isinstance(history, int):  # bool included, and rejected below
        if isinstance(history, bool) or history < 0:
            raise ValueError(
                f"history must be the message list or a message count >= 0, not {history!r}"
            )
        # A bare count carries no roles: assume the runtime's turns start with
        # a user message, so any earlier message means an earlier user turn.
        return history, history > 0
    if isinstance(history, str | bytes) or not isinstance(history, Sequence):
        raise TypeError(
            "history must be the conversation's message list (mappings with a 'role') "
            f"or its length as an int, not {type(history).__name__}"
        )
    found = False
    for index, message in enumerate(history):
        if not isinstance(message, Mapping):
            raise TypeError(
                f"history[{index}] is a {type(message).__name__}; pass chat messages "
                "as mappings like {'role': 'user', 'content': '...'}"
            )
        if message.get("role") == "user":
            found = True
            break
    return len(history), found


class NeedTracker:
    """Tracks a session's needs and the goal boundary for trimming.

    Call :meth:`record_need` before the turn's user message is appended to the
    history. State read by the runtime:

    * :attr:`boundary` — 0-based index of the current need's user message
      (``position - 1``), None before the first need; pass it to ``plan_trim``.
    * :attr:`position` — 1-based position of that message, None before the first need.
    * :attr:`goal_changed` — whether the "Goal changed" orientation marker is
      up: set by a shift that raises it, cleared by one that supersedes
      nothing or is a different goal without earlier user turns, and kept as
      it was by a same-task re-emit (re-declaring the task does not undo an
      earlier change of goal).
    * :attr:`needs` — every :class:`BoundaryShift` recorded, oldest first.

    One tracker per session; :meth:`record_need` is serialized by a lock, so a
    tracker may be shared between threads.
    """

    def __init__(self, *, similarity_threshold: float = DEFAULT_SIMILARITY_THRESHOLD) -> None:
        if (
            isinstance(similarity_threshold, bool)
            or not isinstance(similarity_threshold, int | float)
            or not 0.0 < similarity_threshold <= 1.0
        ):
            raise ValueError(
                "similarity_threshold must be a number in (0, 1], e.g. "
                f"{DEFAULT_SIMILARITY_THRESHOLD}, not {similarity_threshold!r}"
            )
        self.similarity_threshold = float(similarity_threshold)
        self._needs: list[BoundaryShift] = []
        self._goal_changed = False
        self._lock = threading.Lock()

    @property
    def needs(self) -> tuple[BoundaryShift, ...]:
        """Every recorded need, oldest first."""
        return tuple(self._needs)

    @property
    def current(self) -> BoundaryShift | None:
        """The latest recorded need, None before the first."""
        return self._needs[-1] if self._needs else None

    @property
    def position(self) -> int | None:
        """1-based position of the current need's user message; None when no need is set."""
        return self._needs[-1].position if self._needs else None

    @property
    def boundary(self) -> int | None:
        """0-based message index where the current need's turn begins (for ``plan_trim``)."""
        return self._needs[-1].boundary_to if self._needs else None

    @property
    def returned_goal(self) -> tuple[int, int] | None:
        """Message indices ``(start, stop)`` of the earlier turns of the goal the user returned to.

        Set while the current goal is a ``resumed_goal`` (or a same-task
        re-emit of one): from the boundary where the resumed goal was first
        declared to the boundary of the next need that was not a re-emit of
        it, i.e. the goal's turns before the user moved on. ``plan_trim(strategy="goal_return")`` removes
        them last; None otherwise.
        """
        with self._lock:
            needs = self._needs
            head = len(needs) - 1
            while head > 0 and needs[head].reason == "same_task_reemit":
                head -= 1
            ordinal = needs[head].resumed_need if head >= 0 else None
            if ordinal is None:
                return None
            resumed = ordinal - 1
            while resumed > 0 and needs[resumed].reason == "same_task_reemit":
                resumed -= 1  # the goal began where it was first declared
            following = resumed + 1
            while following < head and needs[following].reason == "same_task_reemit":
                following += 1
            start, stop = needs[resumed].boundary_to, needs[following].boundary_to
            return (start, stop) if start < stop else None

    @property
    def goal_changed(self) -> bool:
        """Whether the "Goal changed" orientation marker is raised."""
        return self._goal_changed

    def record_need(
        self,
        need: str,
        history: Sequence[Mapping[str, Any]] | int,
        *,
        escalation: bool = False,
    ) -> BoundaryShift:
        """Record ``need`` for the turn about to be appended to ``history``.

        Args:
            need: the need text the model or runtime declared.
            history: the messages already in history (the turn's user message
                not yet appended), or their count when roles are unknown.
            escalation: the need comes from an escalation answer.

        Returns:
            The :class:`BoundaryShift`; the tracker's state now reflects it.

        Raises:
            TypeError / ValueError: for a non-string need or a malformed history.
        """
        if not isinstance(need, str):
            raise TypeError(f"need must be the need's text as a str, not {type(need).__name__}")
        if not isinstance(escalation, bool):
            raise TypeError(f"escalation must be a bool, not {type(escalation).__name__}")
        count, supersedes = _has_user_turn(history)
        # The user message of this turn is appended after the need is recorded:
        # it will sit at 1-based position count + 1 (the old runtime stored
        # count, which made a first-turn need look unset).
        position = count + 1
        with self._lock:
            previous = self._needs[-1] if self._needs else None
            similarity: float | None = None
            resumed: int | None = None
            if previous is not None:
                similarity = need_similarity(need, previous.need_text)
            same_task = similarity is not None and similarity >= self.similarity_threshold
            reason: Reason
            if escalation:
                reason = "escalation"
            elif previous is None:
                reason = "first_need"
            elif same_task:
                reason = "same_task_reemit"
            else:
                resumed = self._match_earlier(need)
                reason = "resumed_goal" if resumed is not None else "new_goal"
            changed_marker = supersedes and not same_task
            shift = BoundaryShift(
                reason=reason,
                position=position,
                boundary_from=previous.boundary_to if previous is not None else None,
                boundary_to=position - 1,
                supersedes_earlier=supersedes,
                similarity=similarity,
                similarity_threshold=self.similarity_threshold,
                changed_marker=changed_marker,
                need_count=len(self._needs) + 1,
                need_hash=need_hash(need),
                need_size=len(need.encode("utf-8", "surrogatepass")),
                need_text=need,
                resumed_need=resumed,
            )
            self._needs.append(shift)
            if not same_task:
                self._goal_changed = changed_marker
            return shift

    def _match_earlier(self, need: str) -> int | None:
        """Ordinal of the most similar earlier (not current) need at or above threshold."""
        best: int | None = None
        best_score = self.similarity_threshold
        # Newest first, strict ">" for later ones: ties go to the most recent.
        for shift in reversed(self._needs[:-1]):
            score = need_similarity(need, shift.need_text)
            if score >= best_score and (best is None or score > best_score):
                best, best_score = shift.need_count, score
        return best
