"""The pure trim planner: which messages a runtime keeps under a context budget.

:func:`plan_trim` decides, :class:`TrimPlan` records every decision, and
:meth:`TrimPlan.apply` builds the trimmed message list. Nothing here records
spans or mutates the caller's messages; :meth:`TrimPlan.attributes` gives the
``recurscope.trim.*`` attributes another module records.

Three strategies, so that the pipeline can compare them on the same sessions:

* ``drop_oldest`` — the old runtime's behaviour, exactly: drop the first
  message, then every following non-user message, until it fits.
* ``head_tail`` — pin the transcript head (through the first user message),
  keep the longest recent tail that fits, drop or summarize the middle.
* ``goal_aware`` (ADR 0094) — with a goal boundary, pre-boundary messages
  compete oldest-first (the stale ask first) and go only as far as needed;
  only when the goal's own turns overflow do they all go, and the goal's turns
  get head+tail retention with the switch turn and first plan pinned.

The orientation prefix is never trimmed. In ``head_tail`` and ``goal_aware``
a tool result travels with the message that called it (chat APIs reject an
orphaned tool message). With a summarizer, one summary message replaces every
removed span. The exact algorithm, with the invariants the property tests
pin, and the cost model are in docs/trim.md.
"""

from __future__ import annotations

import contextvars
import operator
import threading
import time
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice, repeat
from typing import Any, Final, Literal, cast, get_args

from opentelemetry.util.types import AttributeValue

from . import _faults, semconv
from .tokens import TokenCounter, default_counter

__all__ = [
    "Action",
    "Phase",
    "RemovalTally",
    "RemovedSpan",
    "SizeBreakdown",
    "Strategy",
    "Summarizer",
    "TrimPlan",
    "plan_trim",
]

Strategy = Literal["goal_aware", "head_tail", "drop_oldest", "goal_return"]
Phase = Literal["fits", "pre_boundary", "goal_overflow", "no_boundary"]
Action = Literal["dropped", "summarized"]
Summarizer = Callable[[Sequence[Mapping[str, Any]]], str]

_STRATEGIES: Final = frozenset(get_args(Strategy))

# Size categories of the context-window breakdown. System/developer messages
# inside the list are orientation *content* (counted with the prefix) but,
# unlike the prefix, they can be trimmed.
_USER, _ASSISTANT, _TOOL, _ORIENTATION = 0, 1, 2, 3
_CATEGORY: Final[dict[str, int]] = {
    "user": _USER,
    "tool": _TOOL,
    "function": _TOOL,
    "ipython": _TOOL,
    "system": _ORIENTATION,
    "developer": _ORIENTATION,
}


@dataclass(frozen=True)
class RemovedSpan:
    """A contiguous, half-open range ``[start, stop)`` of removed message indices.

    ``action`` is ``summarized`` when the plan's one summary replaces the span,
    else ``dropped``. Invariant: ``0 <= start < stop <= len(messages)``.
    """

    start: int
    stop: int
    action: Action

    def __len__(self) -> int:
        return self.stop - self.start

    @property
    def indices(self) -> range:
        """The message indices in the span."""
        return range(self.start, self.stop)


@dataclass(frozen=True)
class SizeBreakdown:
    """Sizes of a context window, in the plan's unit, by category.

    Fields: ``total`` (orientation + messages + summary), ``messages`` (message
    count, orientation prefix excluded, summary included), ``orientation``
    (the prefix plus system/developer messages in the list), ``user``,
    ``assistant`` (every other role, the summary included), ``tool``
    (tool/function/ipython). Invariant: ``total == orientation + user +
    assistant + tool``.
    """

    total: int
    messages: int
    orientation: int
    user: int
    assistant: int
    tool: int


@dataclass(frozen=True)
class RemovalTally:
    """Count and size of removed messages, split at the goal boundary.

    ``pre_boundary_*`` covers indices below the boundary; ``post_boundary_*``
    the rest (everything, when the plan has no boundary).
    """

    pre_boundary_count: int = 0
    pre_boundary_size: int = 0
    post_boundary_count: int = 0
    post_boundary_size: int = 0

    @property
    def count(self) -> int:
        """Messages removed, pre- and post-boundary together."""
        return self.pre_boundary_count + self.post_boundary_count

    @property
    def size(self) -> int:
        """Size removed, pre- and post-boundary together."""
        return self.pre_boundary_size + self.post_boundary_size


@dataclass(frozen=True)
class TrimPlan:
    """Every decision of one trim planning.

    Fields:
        strategy, unit, encoding, budget: the planning's inputs (``encoding``
            None for bytes; ``budget <= 0`` means no limit).
        phase: ``fits`` (nothing needed removing), ``pre_boundary`` (only
            pre-boundary messages went), ``goal_overflow`` (the goal's own turns
            exceed the budget), ``no_boundary`` (head+tail or drop-oldest path).
        boundary_index: the usable goal boundary (``0 < b < len(messages)``)
            or None. Head+tail and drop-oldest plans keep it for accounting only.
        kept: indices of messages kept verbatim, ascending.
        removed: removed spans, ascending and non-adjacent; ``kept`` and the
            spans partition ``range(len(messages))``.
        pinned: indices the strategy never removes (its head; for
            ``goal_overflow`` the switch turn through the first plan).
        summary: the summary text replacing every removed span, or None.
        summary_index: message index the summary stands at (the start of the
            first removed span; it goes before the kept messages from there on).
        summary_size: size of the summary (0 without one).
        summary_superseded: the summary covers pre-boundary user requests.
        compaction_enabled: a summarizer was given.
        compaction_used: a summary is in the plan.
        compaction_failed: a summarizer was called but the plan fell back to
            dropping; ``compaction_error`` says why (``timeout``,
            ``error:<ExceptionType>``, ``over_budget``).
        stale_ask_dropped: the first user message, before the boundary, was removed.
        orientation_size: size of the orientation prefix (never trimmed).
        before, after: size breakdowns of the context before and after the plan.
        dropped, summarized: removed counts and sizes, split at the boundary.
        orientation: the orientation prefix the plan was made with, which
            :meth:`apply` puts first (left out of equality and ``repr``).

    Invariants: ``after.total <= budget`` unless the budget is unlimited or
    only pinned content (orientation and ``pinned``) remains, with no summary;
    ``summary`` is not None iff ``compaction_used`` iff every span is
    ``summarized``; ``compaction_error`` is not None iff ``compaction_failed``.
    """

    strategy: Strategy
    unit: Literal["tokens", "bytes"]
    encoding: str | None
    budget: int
    phase: Phase
    boundary_index: int | None
    kept: tuple[int, ...]
    removed: tuple[RemovedSpan, ...]
    pinned: tuple[int, ...]
    summary: str | None
    summary_index: int | None
    summary_size: int
    summary_superseded: bool
    compaction_enabled: bool
    compaction_used: bool
    compaction_failed: bool
    compaction_error: str | None
    stale_ask_dropped: bool
    orientation_size: int
    before: SizeBreakdown
    after: SizeBreakdown
    dropped: RemovalTally
    summarized: RemovalTally
    orientation: tuple[Mapping[str, Any], ...] = field(default=(), repr=False, compare=False)

    @property
    def trimmed(self) -> bool:
        """True when at least one message was removed (dropped or summarized)."""
        return bool(self.removed)

    @property
    def over_budget(self) -> bool:
        """True when the plan still exceeds a limited budget (only pinned content is left)."""
        return self.budget > 0 and self.after.total > self.budget

    def apply(
        self,
        messages: Sequence[Mapping[str, Any]],
        orientation: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        """The trimmed context: orientation, then kept messages with the summary in place.

        Pass the messages the plan was made from. The orientation is the one
        the plan was made with; passing it again is accepted when it is equal.
        A different one is used as given (the plan's sizes no longer describe
        the result) and reported as a fault — logged once, never raised.
        Messages are shallow-copied to dicts; the summary is
        ``{"role": "assistant", "content": summary}``.
        """
        if len(messages) != self.before.messages:
            raise ValueError(
                f"apply() needs the {self.before.messages} messages the plan was made "
                f"from, got {len(messages)}; plan again with plan_trim() for a new list"
            )
        if orientation is None:
            orientation = self.orientation
        elif orientation is not self.orientation and not _same_messages(
            orientation, self.orientation
        ):
            _faults.misuse(
                "trim.apply.orientation",
                f"apply() got an orientation that differs from the {len(self.orientation)} "
                "message(s) the plan was made with: used as given, so "
                "the plan's sizes and budget do not describe the result. Call "
                "plan.apply(messages) to use the plan's own orientation",
            )
        out: list[dict[str, Any]] = [dict(m) for m in orientation]
        pending = self.summary is not None
        at = self.summary_index if self.summary_index is not None else 0
        for index in self.kept:
            if pending and index >= at:
                out.append({"role": "assistant", "content": self.summary})
                pending = False
            out.append(dict(messages[index]))
        if pending:
            out.append({"role": "assistant", "content": self.summary})
        return out

    def attributes(self) -> dict[str, AttributeValue]:
        """``recurscope.trim.*`` span attributes; only those that apply to this plan."""
        has_boundary = self.boundary_index is not None
        attrs: dict[str, AttributeValue] = {
            semconv.TRIM_STRATEGY: self.strategy,
            semconv.TRIM_UNIT: self.unit,
            semconv.TRIM_BUDGET: self.budget,
            semconv.TRIM_PHASE: self.phase,
            semconv.TRIM_TRIMMED: self.trimmed,
            semconv.TRIM_OVER_BUDGET: self.over_budget,
            semconv.TRIM_ORIENTATION_SIZE: self.orientation_size,
            semconv.TRIM_BEFORE_SIZE: self.before.total,
            semconv.TRIM_BEFORE_MESSAGES: self.before.messages,
            semconv.TRIM_BEFORE_USER_SIZE: self.before.user,
            semconv.TRIM_BEFORE_ASSISTANT_SIZE: self.before.assistant,
            semconv.TRIM_BEFORE_TOOL_SIZE: self.before.tool,
            semconv.TRIM_AFTER_SIZE: self.after.total,
            semconv.TRIM_AFTER_MESSAGES: self.after.messages,
            semconv.TRIM_AFTER_USER_SIZE: self.after.user,
            semconv.TRIM_AFTER_ASSISTANT_SIZE: self.after.assistant,
            semconv.TRIM_AFTER_TOOL_SIZE: self.after.tool,
            semconv.TRIM_DROPPED_POST_COUNT: self.dropped.post_boundary_count,
            semconv.TRIM_DROPPED_POST_SIZE: self.dropped.post_boundary_size,
        }
        if self.encoding is not None:
            attrs[semconv.TRIM_ENCODING] = self.encoding
        if has_boundary:
            assert self.boundary_index is not None  # for mypy: has_boundary says so
            attrs[semconv.TRIM_BOUNDARY_INDEX] = self.boundary_index
            attrs[semconv.TRIM_DROPPED_PRE_COUNT] = self.dropped.pre_boundary_count
            attrs[semconv.TRIM_DROPPED_PRE_SIZE] = self.dropped.pre_boundary_size
            attrs[semconv.TRIM_STALE_ASK_DROPPED] = self.stale_ask_dropped
        if self.compaction_enabled:
            attrs[semconv.TRIM_COMPACTION_USED] = self.compaction_used
            attrs[semconv.TRIM_COMPACTION_FAILED] = self.compaction_failed
            attrs[semconv.TRIM_SUMMARIZED_POST_COUNT] = self.summarized.post_boundary_count
            attrs[semconv.TRIM_SUMMARIZED_POST_SIZE] = self.summarized.post_boundary_size
            if has_boundary:
                attrs[semconv.TRIM_SUMMARIZED_PRE_COUNT] = self.summarized.pre_boundary_count
                attrs[semconv.TRIM_SUMMARIZED_PRE_SIZE] = self.summarized.pre_boundary_size
        if self.compaction_error is not None:
            attrs[semconv.TRIM_COMPACTION_ERROR] = self.compaction_error
        if self.summary is not None:
            attrs[semconv.TRIM_SUMMARY_SIZE] = self.summary_size
            attrs[semconv.TRIM_SUMMARY_SUPERSEDED] = self.summary_superseded
        if self.trimmed:
            attrs[semconv.GEN_AI_CONVERSATION_COMPACTED] = True
        if self.unit == "tokens":
            attrs[semconv.GEN_AI_USAGE_INPUT_TOKENS] = self.after.total
        return attrs


def _same_messages(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]) -> bool:
    try:
        return len(a) == len(b) and all(x is y or x == y for x, y in zip(a, b, strict=True))
    except Exception:  # not sized, or a message whose __eq__ raises: as good as different
        return False


# --- sizing ------------------------------------------------------------------


class _Sized:
    """Sizes, roles and running totals of a conversation's messages.

    Append-only: entries are never changed once written, so a planner may read
    indices below its own message count while another thread extends the
    same object. A shorter or diverging conversation gets a new object.
    """

    __slots__ = (
        "assistant_at",
        "by_category",
        "categories",
        "contents",
        "counter",
        "messages",
        "prefix",
        "roles",
        "sizes",
        "user_at",
    )

    def __init__(self, counter: TokenCounter | None) -> None:
        self.counter = counter
        self.messages: list[Mapping[str, Any]] = []
        self.contents: list[object] = []  # content objects, to notice a reassigned content
        self.sizes: list[int] = []
        self.roles: list[object] = []
        self.categories: list[int] = []
        # prefix[i] = size of messages[:i]; by_category[c][i] likewise for one
        # category. Every cut point and every removed-span size is read off
        # these in O(1) or O(log n): nothing is re-summed per planning.
        self.prefix: list[int] = [0]
        self.by_category: tuple[list[int], ...] = ([0], [0], [0], [0])
        self.user_at: list[int] = []  # indices of role "user", ascending
        self.assistant_at: list[int] = []  # indices of role "assistant", ascending

    def append(self, message: Mapping[str, Any], size: int) -> None:
        index = len(self.sizes)
        role = message.get("role")
        category = _CATEGORY.get(role, _ASSISTANT) if isinstance(role, str) else _ASSISTANT
        self.messages.append(message)
        self.contents.append(message.get("content"))
        self.sizes.append(size)
        self.roles.append(role)
        self.categories.append(category)
        self.prefix.append(self.prefix[-1] + size)
        for column, totals in enumerate(self.by_category):
            totals.append(totals[-1] + (size if column == category else 0))
        if role == "user":
            self.user_at.append(index)
        elif role == "assistant":
            self.assistant_at.append(index)

    def truncated(self, count: int) -> _Sized:
        """A new object holding the first ``count`` messages (this one is left as it is)."""
        copy = _Sized(self.counter)
        copy.messages = self.messages[:count]
        copy.contents = self.contents[:count]
        copy.sizes = self.sizes[:count]
        copy.roles = self.roles[:count]
        copy.categories = self.categories[:count]
        copy.prefix = self.prefix[: count + 1]
        copy.by_category = tuple(totals[: count + 1] for totals in self.by_category)
        copy.user_at = self.user_at[: bisect_left(self.user_at, count)]
        copy.assistant_at = self.assistant_at[: bisect_left(self.assistant_at, count)]
        return copy


# Planning at every turn re-reads a conversation that only grew. The sizes of
# the conversations planned last are remembered, keyed by (counter, first
# message object), and reused for the longest prefix whose messages *and*
# content values are equal: only new or replaced messages are sized. The
# check runs at C speed (identity first); sizing even a cached text does not.
# Comparing contents as well catches a message whose content was reassigned
# in place (the dict itself is then the same object as the remembered one).
_MEMO_CONVERSATIONS = 64
_memo: OrderedDict[tuple[int, int], _Sized] = OrderedDict()
_memo_lock = threading.Lock()
# dict.get unbound: mapping it over messages runs at C speed and raises
# TypeError as soon as one message is not a dict (then a slower path runs).
_dict_get = cast(Callable[[Any, str], object], dict.get)


def _common_prefix(new: list[Any], old: list[Any]) -> int:
    """Length of the longest common prefix of two lists, by equality.

    List comparison takes the identity shortcut per element, so an unchanged
    conversation is checked at C speed; equal but distinct messages (a
    runtime that rebuilds its dicts each turn) match too, and have equal sizes.
    """
    count = min(len(new), len(old))
    try:
        if (new if len(new) == count else new[:count]) == (
            old if len(old) == count else old[:count]
        ):
            return count
    except Exception:  # an exotic value whose __eq__ raises: compare one by one
        pass
    for index in range(count):
        try:
            if new[index] is not old[index] and not bool(new[index] == old[index]):
                return index
        except Exception:
            return index
    return count


def _not_a_message(name: str, index: int, value: object) -> TypeError:
    return TypeError(
        f"{name}[{index}] is a {type(value).__name__}; pass chat messages as mappings "
        "like {'role': 'user', 'content': '...'}"
    )


def _same_contents(messages: list[Any], contents: list[object], count: int) -> int:
    """Length of the prefix (up to ``count``) whose messages still hold the remembered contents.

    A content reassigned in place (streamed into, cleared, truncated) is a new
    object even though the message dict is the same one: that message is sized again.
    """
    try:
        current = map(_dict_get, islice(messages, count), repeat("content"))
        if all(map(operator.is_, current, contents)):
            return count
    except TypeError:  # a Mapping that is not a dict: compare one by one
        pass
    for index in range(count):
        if messages[index].get("content") is not contents[index]:
            return index
    return count


def _measure(messages: Sequence[Mapping[str, Any]], counter: TokenCounter) -> _Sized:
    """Sized messages, reusing a remembered prefix of the same conversation."""
    count = len(messages)
    listed: list[Any] = messages if type(messages) is list else list(messages)
    if count == 0:
        return _Sized(counter)
    key = (id(counter), id(listed[0]))
    with _memo_lock:
        remembered = _memo.get(key)
    reuse = 0
    if remembered is not None and remembered.counter is counter:
        # Read without the lock: a remembered object only ever grows, and
        # the comparisons look at its first len(...) entries as of now.
        reuse = _common_prefix(listed, remembered.messages[: len(remembered.sizes)])
        reuse = _same_contents(listed, remembered.contents, reuse)
    else:
        remembered = None
    # Tokenize new messages outside the lock: sessions planning in other
    # threads must not wait for this one's tokenizer.
    message_size = counter.message_size
    new_sizes: list[int] = []
    for index in range(reuse, count):
        message = listed[index]
        if not isinstance(message, Mapping):
            raise _not_a_message("messages", index, message)
        new_sizes.append(message_size(message))
    with _memo_lock:
        if (
            remembered is not None
            and _memo.get(key) is remembered
            and len(remembered.sizes) == reuse
        ):
            sized = remembered  # nobody extended it meanwhile: grow it in place
        elif remembered is not None:
            sized = remembered.truncated(reuse)
        else:
            sized = _Sized(counter)
        for index, size in enumerate(new_sizes, start=reuse):
            sized.append(listed[index], size)
        _memo[key] = sized
        _memo.move_to_end(key)
        while len(_memo) > _MEMO_CONVERSATIONS:
            _memo.popitem(last=False)
    return sized


def _from_sizes(messages: Sequence[Mapping[str, Any]], sizes: Sequence[int]) -> _Sized:
    if isinstance(sizes, str | bytes) or not isinstance(sizes, Sequence):
        raise TypeError("sizes must be a sequence of ints, one per message, or None")
    if len(sizes) != len(messages):
        raise ValueError(
            f"sizes has {len(sizes)} entries for {len(messages)} messages; pass one size "
            "per message, or None to size them with the counter"
        )
    sized = _Sized(None)
    for index, (message, size) in enumerate(zip(messages, sizes, strict=True)):
        if not isinstance(message, Mapping):
            raise _not_a_message("messages", index, message)
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise ValueError(f"sizes[{index}] must be an int >= 0, not {size!r}")
        sized.append(message, size)
    return sized


# --- cutting -----------------------------------------------------------------

# A cut: the removed spans (ascending, disjoint, non-adjacent), the phase of
# the path taken, and the pinned range [pin_start, pin_end).
_Spans = list[tuple[int, int]]


@dataclass(frozen=True)
class _Cut:
    spans: _Spans
    phase: Phase
    pin_start: int = 0
    pin_end: int = 0


class _Conversation:
    """One planning's view of the sized messages: the first ``n``, a boundary, an orientation."""

    __slots__ = ("boundary", "n", "orientation_size", "returned", "sized")

    def __init__(
        self,
        sized: _Sized,
        n: int,
        orientation_size: int,
        boundary: int | None,
        returned: tuple[int, int] | None = None,
    ):
        self.sized = sized
        self.n = n
        self.orientation_size = orientation_size
        self.boundary = boundary
        self.returned = returned

    @property
    def total(self) -> int:
        return self.orientation_size + self.sized.prefix[self.n]

    @property
    def first_user(self) -> int | None:
        user_at = self.sized.user_at
        return user_at[0] if user_at and user_at[0] < self.n else None

    def align(self, index: int, high: int) -> int:
        """First unit start at or after ``index`` (at most ``high``).

        A tool result travels with the message before it (the call that
        produced it): chat APIs reject a tool message whose call was removed.
        So every cut lands on a unit start: index 0, the boundary, or a
        non-tool message.
        """
        categories, boundary = self.sized.categories, self.boundary
        while 0 < index < high and index != boundary and categories[index] == _TOOL:
            index += 1
        return index

    def unit_end(self, index: int) -> int:
        """End (exclusive) of the unit starting at ``index``: it takes the tool results after it."""
        return self.align(index + 1, self.n)

    def tail_start(self, low: int, high: int, room: int) -> int:
        """Start of the longest unit-aligned suffix of ``[low, high)`` whose size fits ``room``.

        Contiguous: it never skips a large message to keep an older small one
        (sizes are >= 0, so the fitting starts form a range found by bisection).
        """
        if room < 0:
            return high
        prefix = self.sized.prefix
        start = bisect_left(prefix, prefix[high] - room, low, high)
        return self.align(start, high)

    def head_tail(self, head_start: int, head_end: int, limit: int) -> _Spans:
        """Keep ``[head_start, head_end)`` pinned and the longest tail after it that fits."""
        prefix = self.sized.prefix
        room = limit - self.orientation_size - (prefix[head_end] - prefix[head_start])
        tail = self.tail_start(head_end, self.n, room)
        return [(head_end, tail)] if tail > head_end else []


def _cut_drop_oldest(conv: _Conversation, limit: int) -> _Cut:
    # The old runtime, exactly: drop the first message, then keep dropping
    # while the first remaining message is not a user message; repeat until
    # the rest fits (possibly nothing). Each round ends on a user message (or
    # the end), so the cut is the first user index >= 1 whose removal
    # suffices — found by bisection instead of replaying the rounds.
    excess = conv.total - limit
    if excess <= 0:
        return _Cut([], "no_boundary")
    prefix, user_at = conv.sized.prefix, conv.sized.user_at
    enough = max(1, bisect_left(prefix, excess, 0, conv.n + 1))
    position = bisect_left(user_at, enough)
    cut = user_at[position] if position < len(user_at) else conv.n
    cut = min(cut, conv.n)
    return _Cut([(0, cut)] if cut else [], "no_boundary")  # no messages: only orientation


def _cut_head_tail(conv: _Conversation, limit: int) -> _Cut:
    # The head is the transcript's original ask: everything through the first
    # user message (and that message's unit). No user message: no head.
    first_user = conv.first_user
    head_end = conv.unit_end(first_user) if first_user is not None else 0
    return _Cut(conv.head_tail(0, head_end, limit), "no_boundary", 0, head_end)


def _cut_goal_aware(conv: _Conversation, limit: int, *, keep_returned: bool = False) -> _Cut:
    b = conv.boundary
    if b is None:
        return _cut_head_tail(conv, limit)
    prefix, n = conv.sized.prefix, conv.n
    if conv.orientation_size + prefix[n] - prefix[b] <= limit:
        returned = conv.returned if keep_returned else None
        return _Cut(_pre_boundary_spans(conv, b, conv.total - limit, returned), "pre_boundary")
    # The goal's own turns overflow: every pre-boundary message goes, and the
    # goal's turns get head+tail with the switch turn through the first plan
    # (the first assistant message after it, with its tool results) pinned.
    assistant_at = conv.sized.assistant_at
    position = bisect_right(assistant_at, b)
    plan = assistant_at[position] if position < len(assistant_at) else n
    head_end = conv.unit_end(plan if plan < n else b)
    spans = [(0, b), *conv.head_tail(b, head_end, limit)]
    return _Cut(_merge(spans), "goal_overflow", b, head_end)


def _cut_goal_return(conv: _Conversation, limit: int) -> _Cut:
    # goal_aware, except that the earlier turns of the goal the user returned
    # to go last among the pre-boundary messages.
    return _cut_goal_aware(conv, limit, keep_returned=True)


def _pre_boundary_spans(
    conv: _Conversation, b: int, excess: int, returned: tuple[int, int] | None = None
) -> _Spans:
    """Remove pre-boundary units until ``excess`` is met: the stale ask's first, then the
    others oldest first, and the units of ``returned`` (goal_return) only after all of them.

    The caller guarantees that removing all of ``[0, b)`` suffices.
    """
    if excess <= 0:
        return []
    last: _Spans = []
    if returned is not None:
        start, stop = conv.align(returned[0], b), conv.align(returned[1], b)
        last = [(start, stop)] if start < stop else []
    order: _Spans = []
    first_user = conv.first_user
    if first_user is not None and first_user < b and not _within(first_user, last):
        order.append((first_user, min(conv.unit_end(first_user), b)))
    order += _without([(0, b)], order + last)
    return _merge(_oldest_first(conv, order + last, excess))


def _within(index: int, spans: _Spans) -> bool:
    return any(lo <= index < hi for lo, hi in spans)


def _without(ranges: _Spans, removed: _Spans) -> _Spans:
    """``ranges`` minus every span of ``removed``, in order (empty pieces dropped)."""
    out: _Spans = []
    for lo, hi in ranges:
        pieces = [(lo, hi)]
        for r_lo, r_hi in removed:
            pieces = [
                piece
                for p_lo, p_hi in pieces
                for piece in ((p_lo, min(p_hi, r_lo)), (max(p_lo, r_hi), p_hi))
                if piece[0] < piece[1]
            ]
        out += pieces
    return out


def _oldest_first(conv: _Conversation, ranges: _Spans, excess: int) -> _Spans:
    """Remove whole ``ranges`` in order, the last one needed only as far as ``excess`` needs.

    Within a range, units go oldest first; every range starts on a unit start.
    """
    prefix = conv.sized.prefix
    spans: _Spans = []
    for lo, hi in ranges:
        size = prefix[hi] - prefix[lo]
        if size >= excess:
            cut = conv.align(bisect_left(prefix, prefix[lo] + excess, lo, hi), hi)
            spans.append((lo, cut))
            return spans
        spans.append((lo, hi))
        excess -= size
    return spans


def _merge(spans: _Spans) -> _Spans:
    merged: _Spans = []
    for start, stop in sorted(spans):
        if start >= stop:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(stop, merged[-1][1]))
        else:
            merged.append((start, stop))
    return merged


_CUTTERS: Final[dict[str, Callable[[_Conversation, int], _Cut]]] = {
    "drop_oldest": _cut_drop_oldest,
    "head_tail": _cut_head_tail,
    "goal_aware": _cut_goal_aware,
    "goal_return": _cut_goal_return,
}


# --- compaction ----------------------------------------------------------------


def _run_summarizer(
    summarizer: Summarizer, removed: Sequence[Mapping[str, Any]], timeout: float
) -> tuple[str | None, str | None]:
    """Call the summarizer in a worker thread: (summary, None) or (None, error code).

    The thread is a daemon and is abandoned on timeout: the host must never
    wait past ``timeout`` for a summary. It runs in a copy of the caller's
    context so the summarizer's own LLM spans nest under the caller's span.
    """
    if timeout <= 0:
        return None, "timeout"
    outcome: list[tuple[bool, object]] = []
    context = contextvars.copy_context()

    def work() -> None:
        try:
            outcome.append((True, context.run(summarizer, removed)))
        except BaseException as exc:  # reported as error:<Type>, never raised
            outcome.append((False, exc))

    worker = threading.Thread(target=work, name="recurscope-summarizer", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive() or not outcome:
        return None, "timeout"
    ok, value = outcome[0]
    if not ok:
        return None, f"error:{type(value).__name__}"
    if not isinstance(value, str):
        return None, "error:TypeError"
    if not value.strip():
        return None, "error:ValueError"  # an empty summary would replace content with nothing
    return value, None


def _removed_size(conv: _Conversation, spans: _Spans) -> int:
    prefix = conv.sized.prefix
    return sum(prefix[stop] - prefix[start] for start, stop in spans)


def _pick(messages: Sequence[Mapping[str, Any]], spans: _Spans) -> tuple[Mapping[str, Any], ...]:
    return tuple(messages[i] for start, stop in spans for i in range(start, stop))


# --- the planner -----------------------------------------------------------------


def plan_trim(
    messages: Sequence[Mapping[str, Any]],
    *,
    budget: int,
    orientation: Sequence[Mapping[str, Any]] = (),
    strategy: Strategy = "goal_aware",
    boundary: int | None = None,
    counter: TokenCounter | None = None,
    summarizer: Summarizer | None = None,
    summarizer_timeout: float = 10.0,
    sizes: Sequence[int] | None = None,
    returned_goal: tuple[int, int] | None = None,
) -> TrimPlan:
    """Plan which messages to keep under ``budget``; see docs/trim.md for the algorithm.

    Args:
        messages: the conversation after the orientation prefix (chat messages,
            ``{"role", "content", ...}``), oldest first. Not modified; treat
            planned messages as immutable (see docs/trim.md, "Cost").
        budget: size allowed for orientation + messages, in the counter's unit;
            ``<= 0`` means no limit.
        orientation: the system/goal prefix; never trimmed, counted in the budget.
        strategy: ``goal_aware`` (default), ``head_tail``, ``drop_oldest`` or
            ``goal_return`` (``goal_aware`` that removes ``returned_goal`` last).
        boundary: 0-based index of the current need's user message
            (``NeedTracker.boundary``); unusable unless ``0 < boundary < len(messages)``.
        counter: sizes messages; the process-wide :func:`default_counter` by default.
        summarizer: turns removed messages into one summary; without it,
            removed messages are dropped.
        summarizer_timeout: seconds all summarizer calls of this planning may take.
        sizes: precomputed message sizes (in the counter's unit), one per message.
        returned_goal: ``(start, stop)`` message indices of the earlier turns of
            the goal the current need returns to (``NeedTracker.returned_goal``);
            read by ``goal_return`` only, unusable unless
            ``0 <= start < stop <= boundary``.

    Raises:
        TypeError / ValueError: for malformed arguments, saying what to pass.
    """
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(
            "budget must be an int in the counter's unit (0 or less for no limit), "
            f"not {type(budget).__name__}"
        )
    if boundary is not None and (isinstance(boundary, bool) or not isinstance(boundary, int)):
        raise TypeError(
            "boundary must be a 0-based message index (NeedTracker.boundary) or None, "
            f"not {type(boundary).__name__}"
        )
    if returned_goal is not None and not (
        isinstance(returned_goal, tuple)
        and len(returned_goal) == 2
        and all(isinstance(i, int) and not isinstance(i, bool) for i in returned_goal)
    ):
        raise TypeError(
            "returned_goal must be a (start, stop) tuple of message indices "
            "(NeedTracker.returned_goal) or None"
        )
    if strategy not in _STRATEGIES:
        raise ValueError(
            f"strategy must be one of {', '.join(sorted(_STRATEGIES))}, not {strategy!r}"
        )
    if (
        isinstance(summarizer_timeout, bool)
        or not isinstance(summarizer_timeout, int | float)
        or not summarizer_timeout > 0  # also rejects NaN
    ):
        raise ValueError(
            f"summarizer_timeout must be a number of seconds > 0, not {summarizer_timeout!r}"
        )
    if summarizer is not None and not callable(summarizer):
        raise TypeError("summarizer must be a callable taking the removed messages, or None")
    if counter is None:
        counter = default_counter()
    elif not isinstance(counter, TokenCounter):
        raise TypeError(f"counter must be a TokenCounter or None, not {type(counter).__name__}")
    _check_sequence(messages, "messages")
    _check_sequence(orientation, "orientation")

    sized = _measure(messages, counter) if sizes is None else _from_sizes(messages, sizes)
    orientation_size = 0
    for index, message in enumerate(orientation):
        if not isinstance(message, Mapping):
            raise _not_a_message("orientation", index, message)
        orientation_size += counter.message_size(message)

    n = len(messages)
    usable = boundary if boundary is not None and 0 < boundary < n else None
    returned = None
    if usable is not None and returned_goal is not None:
        start, stop = returned_goal
        if 0 <= start < stop <= usable:
            returned = (start, stop)
    conv = _Conversation(sized, n, orientation_size, usable, returned)
    finish = _Finisher(conv, strategy, counter, budget, summarizer is not None, tuple(orientation))
    if budget <= 0 or conv.total <= budget:
        return finish(_Cut([], "fits"))

    cutter = _CUTTERS[strategy]
    cut = cutter(conv, budget)
    if summarizer is None or not cut.spans:
        return finish(cut)

    # Compaction: at most two summarizer calls. The first summarizes the
    # drop-only cut; if the summary does not fit beside what is kept, cut again
    # with room reserved for it and summarize that (wider) cut. Failing that,
    # fall back to the drop-only cut.
    deadline = time.monotonic() + float(summarizer_timeout)
    summary, error = _run_summarizer(summarizer, _pick(messages, cut.spans), summarizer_timeout)
    if summary is None:
        return finish(cut, error=error)
    summary_size = counter.count(summary)
    if conv.total - _removed_size(conv, cut.spans) + summary_size <= budget:
        return finish(cut, summary=summary, summary_size=summary_size)
    wider = cutter(conv, budget - summary_size)
    if wider.spans == cut.spans:  # only pinned content is left: no room for a summary
        return finish(cut, error="over_budget")
    remaining = deadline - time.monotonic()
    summary, error = _run_summarizer(summarizer, _pick(messages, wider.spans), remaining)
    if summary is None:
        return finish(cut, error=error)
    summary_size = counter.count(summary)
    if conv.total - _removed_size(conv, wider.spans) + summary_size <= budget:
        return finish(wider, summary=summary, summary_size=summary_size)
    return finish(cut, error="over_budget")


def _check_sequence(value: object, name: str) -> None:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a sequence of chat messages (a list of mappings like "
            f"{{'role': 'user', 'content': '...'}}), not {type(value).__name__}"
        )


_NOTHING_REMOVED: Final = RemovalTally()


class _Finisher:
    """Builds the :class:`TrimPlan` for a chosen cut, in O(spans + kept)."""

    def __init__(
        self,
        conv: _Conversation,
        strategy: Strategy,
        counter: TokenCounter,
        budget: int,
        compaction_enabled: bool,
        orientation: tuple[Mapping[str, Any], ...],
    ) -> None:
        self.conv = conv
        self.strategy = strategy
        self.counter = counter
        self.budget = budget
        self.compaction_enabled = compaction_enabled
        self.orientation = orientation

    def __call__(
        self,
        cut: _Cut,
        *,
        summary: str | None = None,
        summary_size: int = 0,
        error: str | None = None,
    ) -> TrimPlan:
        conv = self.conv
        sized, n, b = conv.sized, conv.n, conv.boundary
        prefix, by_category, user_at = sized.prefix, sized.by_category, sized.user_at
        split = b if b is not None else 0  # no boundary: everything is "post"
        before = [totals[n] for totals in by_category]
        after = list(before)
        pre_count = pre_size = post_count = post_size = 0
        superseded = False
        first_user = conv.first_user
        stale_ask_dropped = False
        indices = _indices(n)
        kept_parts: list[tuple[int, ...]] = []
        previous = 0
        for start, stop in cut.spans:
            kept_parts.append(indices[previous:start])
            previous = stop
            for column, totals in enumerate(by_category):
                after[column] -= totals[stop] - totals[start]
            middle = min(max(split, start), stop)
            pre_count += middle - start
            pre_size += prefix[middle] - prefix[start]
            post_count += stop - middle
            post_size += prefix[stop] - prefix[middle]
            if middle > start and bisect_left(user_at, start) < bisect_left(user_at, middle):
                superseded = True  # a user request before the boundary is in the span
            if first_user is not None and b is not None and start <= first_user < min(stop, b):
                stale_ask_dropped = True
        kept_parts.append(indices[previous:n])
        kept = kept_parts[0]
        for part in kept_parts[1:]:  # at most three parts: tuple concatenation is a memcpy
            kept += part
        after[_ASSISTANT] += summary_size
        tally = RemovalTally(pre_count, pre_size, post_count, post_size)
        orientation = conv.orientation_size
        action: Action = "summarized" if summary is not None else "dropped"
        return TrimPlan(
            strategy=self.strategy,
            unit=self.counter.unit,
            encoding=self.counter.encoding,
            budget=self.budget,
            phase=cut.phase,
            boundary_index=b,
            kept=kept,
            removed=tuple(RemovedSpan(start, stop, action) for start, stop in cut.spans),
            pinned=tuple(range(cut.pin_start, cut.pin_end)),
            summary=summary,
            summary_index=cut.spans[0][0] if summary is not None else None,
            summary_size=summary_size,
            summary_superseded=summary is not None and superseded,
            compaction_enabled=self.compaction_enabled,
            compaction_used=summary is not None,
            compaction_failed=error is not None,
            compaction_error=error,
            stale_ask_dropped=stale_ask_dropped,
            orientation_size=orientation,
            before=_breakdown(before, orientation, n),
            after=_breakdown(after, orientation, len(kept) + (summary is not None)),
            dropped=tally if summary is None else _NOTHING_REMOVED,
            summarized=tally if summary is not None else _NOTHING_REMOVED,
            orientation=self.orientation,
        )


# Kept indices are slices of one shared tuple of ints: slicing copies
# references, where building the tuple afresh would allocate every int > 256.
_index_cache: tuple[int, ...] = tuple(range(1024))


def _indices(count: int) -> tuple[int, ...]:
    """A tuple whose item i is i, with at least ``count`` items."""
    global _index_cache
    cache = _index_cache
    if len(cache) < count:
        cache = tuple(range(max(count, 2 * len(cache))))
        _index_cache = cache  # a racing thread builds an equal tuple: harmless
    return cache


def _breakdown(by_category: list[int], orientation: int, messages: int) -> SizeBreakdown:
    user, assistant, tool, in_list_orientation = by_category
    return SizeBreakdown(
        total=orientation + user + assistant + tool + in_list_orientation,
        messages=messages,
        orientation=orientation + in_list_orientation,
        user=user,
        assistant=assistant,
        tool=tool,
    )
