"""Property tests for plan_trim: invariants that hold for every conversation and budget.

Conversations are random role/size sequences in the bytes unit; the pinned
content each strategy may keep over budget is recomputed here from the
rules in docs/trim.md, independently of the planner's own ``pinned`` field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from recurscope.instrumentation.tokens import TokenCounter
from recurscope.instrumentation.trim import TrimPlan, plan_trim

COUNTER = TokenCounter("bytes")
TOOL_ROLES = {"tool", "function", "ipython"}
ROLES = ["user", "assistant", "tool", "system", "function", "developer"]


@dataclass(frozen=True)
class Case:
    messages: list[dict[str, Any]]
    orientation: list[dict[str, Any]]
    budget: int
    boundary: int | None
    strategy: str
    summary_size: int | None  # None: no summarizer; -1: a summarizer that raises
    returned_goal: tuple[int, int] | None = None

    def plan(self) -> TrimPlan:
        summarizer = None
        if self.summary_size is not None:
            size = self.summary_size

            def summarizer(removed: Sequence[Mapping[str, Any]]) -> str:
                if size < 0:
                    raise RuntimeError("summarizer down")
                return "S" * size

        return plan_trim(
            self.messages,
            budget=self.budget,
            orientation=self.orientation,
            strategy=self.strategy,  # type: ignore[arg-type]
            boundary=self.boundary,
            counter=COUNTER,
            summarizer=summarizer,
            returned_goal=self.returned_goal,
        )


def message(role: str, size: int, index: int) -> dict[str, Any]:
    # A unique prefix per index keeps messages distinct; sizes stay exact.
    return {"role": role, "content": (f"{index}:" + "." * size)[: max(size, 0)]}


@st.composite
def cases(draw: st.DrawFn, strategy: str | None = None, with_boundary: bool = False) -> Case:
    shape = draw(
        st.lists(
            st.tuples(
                # Half the draws are plain chat turns, so user/assistant dominate.
                st.sampled_from(ROLES) | st.sampled_from(["user", "assistant"]),
                st.integers(0, 40),
            ),
            max_size=14,
        )
    )
    messages = [message(role, size, i) for i, (role, size) in enumerate(shape)]
    orientation = [
        {"role": "system", "content": "o" * size}
        for size in draw(st.lists(st.integers(0, 30), max_size=2))
    ]
    total = sum(len(m["content"]) for m in messages) + sum(len(m["content"]) for m in orientation)
    budget = draw(st.integers(-1, total + 5))
    n = len(messages)
    if with_boundary and n >= 2:
        boundary: int | None = draw(st.integers(1, n - 1))
    else:
        boundary = draw(st.none() | st.integers(-1, n + 1))
    returned_goal = None
    if draw(st.booleans()):
        low = draw(st.integers(-1, n + 1))
        returned_goal = (low, draw(st.integers(low - 1, n + 1)))
    return Case(
        messages=messages,
        orientation=orientation,
        budget=budget,
        boundary=boundary,
        strategy=strategy
        or draw(st.sampled_from(["goal_aware", "head_tail", "drop_oldest", "goal_return"])),
        summary_size=draw(st.none() | st.integers(-1, 25)),
        returned_goal=returned_goal,
    )


def unit_end(roles: list[str], index: int, boundary: int | None) -> int:
    end = index + 1
    while end < len(roles) and end != boundary and roles[end] in TOOL_ROLES:
        end += 1
    return end


def pinned_indices(case: Case, plan: TrimPlan) -> set[int]:
    """What the strategy may keep over budget, from the documented rules."""
    roles = [m["role"] for m in case.messages]
    n = len(roles)
    b = case.boundary if case.boundary is not None and 0 < case.boundary < n else None
    if case.strategy == "drop_oldest":
        return set()
    if case.strategy in ("goal_aware", "goal_return") and b is not None:
        if plan.phase != "goal_overflow":
            return set()
        plan_at = next((i for i in range(b + 1, n) if roles[i] == "assistant"), None)
        return set(range(b, unit_end(roles, plan_at if plan_at is not None else b, b)))
    first_user = next((i for i, r in enumerate(roles) if r == "user"), None)
    return set(range(unit_end(roles, first_user, b))) if first_user is not None else set()


@settings(max_examples=150, deadline=None)
@given(cases())
def test_plan_never_exceeds_budget_unless_only_pinned_content_remains(case: Case) -> None:
    """A plan fits its budget, or keeps exactly the strategy's pinned messages and no summary."""
    plan = case.plan()
    if case.budget <= 0 or plan.after.total <= case.budget:
        return
    assert plan.summary is None
    assert set(plan.kept) == pinned_indices(case, plan)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_orientation_is_always_kept(case: Case) -> None:
    """apply() always starts with the whole orientation, and its size is always counted."""
    plan = case.plan()
    applied = plan.apply(case.messages, case.orientation)
    assert applied[: len(case.orientation)] == case.orientation
    assert plan.orientation_size == sum(len(m["content"]) for m in case.orientation)
    assert plan.after.orientation >= plan.orientation_size


@settings(max_examples=150, deadline=None)
@given(cases(strategy="goal_aware", with_boundary=True))
def test_pre_boundary_phase_keeps_every_post_boundary_message(case: Case) -> None:
    """In phase pre_boundary, every message from the boundary on is kept verbatim."""
    plan = case.plan()
    if plan.phase == "pre_boundary":
        assert case.boundary is not None
        assert set(range(case.boundary, len(case.messages))) <= set(plan.kept)
        assert plan.dropped.post_boundary_count == plan.summarized.post_boundary_count == 0


@settings(max_examples=150, deadline=None)
@given(cases(strategy="goal_aware", with_boundary=True))
def test_stale_ask_is_the_first_request_to_go(case: Case) -> None:
    """Under goal_aware with a boundary, no pre-boundary request goes while the stale ask stays."""
    plan = case.plan()
    if case.boundary is None:  # fewer than two messages: no usable boundary exists
        return
    users = [i for i, m in enumerate(case.messages[: case.boundary]) if m["role"] == "user"]
    if not users:
        return
    removed = {i for span in plan.removed for i in span.indices}
    if removed & set(users):
        assert users[0] in removed
        assert plan.stale_ask_dropped


@settings(max_examples=150, deadline=None)
@given(cases())
def test_apply_output_sizes_equal_the_plans_after_sizes(case: Case) -> None:
    """Sizing apply()'s output gives exactly the plan's after-sizes, total and by category."""
    plan = case.plan()
    applied = plan.apply(case.messages, case.orientation)
    assert sum(COUNTER.message_size(m) for m in applied) == plan.after.total
    assert len(applied) - len(case.orientation) == plan.after.messages
    user = sum(COUNTER.message_size(m) for m in applied if m["role"] == "user")
    tool = sum(COUNTER.message_size(m) for m in applied if m["role"] in TOOL_ROLES)
    assert (plan.after.user, plan.after.tool) == (user, tool)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_kept_and_removed_partition_the_message_indices(case: Case) -> None:
    """Kept indices and removed spans cover every message index exactly once, in order."""
    plan = case.plan()
    removed = [i for span in plan.removed for i in span.indices]
    assert sorted([*plan.kept, *removed]) == list(range(len(case.messages)))
    assert list(plan.kept) == sorted(plan.kept)
    assert all(span.start < span.stop for span in plan.removed)
    assert all(a.stop < b.start for a, b in zip(plan.removed, plan.removed[1:], strict=False))
    assert plan.dropped.count + plan.summarized.count == len(removed)


@settings(max_examples=100, deadline=None)
@given(cases())
def test_kept_tail_never_starts_with_an_orphaned_tool_result(case: Case) -> None:
    """Except under drop_oldest, a kept tool result always follows its kept calling message."""
    plan = case.plan()
    if case.strategy == "drop_oldest":
        return
    kept = set(plan.kept)
    roles = [m["role"] for m in case.messages]
    n = len(roles)
    b = case.boundary if case.boundary is not None and 0 < case.boundary < n else None
    for i in plan.kept:
        if roles[i] in TOOL_ROLES and i > 0 and i != b:
            assert i - 1 in kept


@settings(max_examples=100, deadline=None)
@given(cases(strategy="drop_oldest"))
def test_drop_oldest_matches_the_old_loop(case: Case) -> None:
    """drop_oldest removes exactly the leading messages the old runtime's loop removed."""
    plan = case.plan()
    sizes = [len(m["content"]) for m in case.messages]
    roles = [m["role"] for m in case.messages]
    base = sum(len(m["content"]) for m in case.orientation)
    if plan.compaction_used:  # a summary changes what fits; the old loop never summarized
        return
    kept = list(range(len(sizes)))
    if case.budget > 0:
        while kept and base + sum(sizes[i] for i in kept) > case.budget:
            kept.pop(0)
            while kept and roles[kept[0]] != "user":
                kept.pop(0)
    assert list(plan.kept) == kept


@settings(max_examples=100, deadline=None)
@given(cases())
def test_fits_changes_nothing(case: Case) -> None:
    """A history that fits (or an unlimited budget) is planned as fits, with nothing removed."""
    plan = case.plan()
    total = plan.before.total
    if case.budget <= 0 or total <= case.budget:
        assert plan.phase == "fits"
        assert not plan.trimmed
        assert plan.after == plan.before
    else:
        assert plan.phase != "fits"


@settings(max_examples=100, deadline=None)
@given(cases())
def test_summary_and_compaction_flags_agree(case: Case) -> None:
    """A summary exists iff compaction was used iff every removed span is summarized."""
    plan = case.plan()
    assert (plan.summary is not None) == plan.compaction_used
    if plan.removed:
        actions = {span.action for span in plan.removed}
        assert actions == ({"summarized"} if plan.compaction_used else {"dropped"})
    assert (plan.compaction_error is not None) == plan.compaction_failed
    if case.summary_size == -1 and plan.trimmed:
        assert plan.compaction_error == "error:RuntimeError"


def reference_kept(case: Case) -> list[int]:
    """The documented algorithm, written the slow obvious way (no prefix sums, no bisection)."""
    sizes = [len(m["content"]) for m in case.messages]
    roles = [m["role"] for m in case.messages]
    n, limit = len(sizes), case.budget
    base = sum(len(m["content"]) for m in case.orientation)
    b = case.boundary if case.boundary is not None and 0 < case.boundary < n else None
    if limit <= 0 or base + sum(sizes) <= limit:
        return list(range(n))

    def starts_unit(i: int) -> bool:
        return i == 0 or i == b or roles[i] not in TOOL_ROLES

    def head_and_tail(head: range) -> list[int]:
        room = limit - base - sum(sizes[i] for i in head)
        tail = n
        for i in range(n - 1, head.stop - 1, -1):
            if starts_unit(i):
                if sum(sizes[i:]) > room:
                    break
                tail = i
        return [*head, *range(tail, n)]

    if case.strategy == "drop_oldest":
        kept = list(range(n))
        while kept and base + sum(sizes[i] for i in kept) > limit:
            kept.pop(0)
            while kept and roles[kept[0]] != "user":
                kept.pop(0)
        return kept
    first_user = next((i for i, r in enumerate(roles) if r == "user"), None)
    if case.strategy == "head_tail" or b is None:
        head_end = unit_end(roles, first_user, b) if first_user is not None else 0
        return head_and_tail(range(head_end))
    if base + sum(sizes[b:]) <= limit:
        units = [(i, unit_end(roles, i, b)) for i in range(b) if starts_unit(i)]
        protected = _protected_units(case, units, b)
        stale = [
            u for u in units if first_user is not None and u[0] == first_user and u not in protected
        ]
        rest = [u for u in units if u not in stale and u not in protected]
        removed: set[int] = set()
        for start, stop in stale + rest + protected:
            if base + sum(sizes) - sum(sizes[i] for i in removed) <= limit:
                break
            removed.update(range(start, stop))
        return [i for i in range(n) if i not in removed]
    plan_at = next((i for i in range(b + 1, n) if roles[i] == "assistant"), None)
    return head_and_tail(range(b, unit_end(roles, plan_at if plan_at is not None else b, b)))


def _protected_units(case: Case, units: list[tuple[int, int]], b: int) -> list[tuple[int, int]]:
    """goal_return: the units of the returned-to goal's range, its ends moved to unit starts."""
    if case.strategy != "goal_return" or case.returned_goal is None:
        return []
    start, stop = case.returned_goal
    if not 0 <= start < stop <= b:
        return []
    starts = [u[0] for u in units]
    first = next((i for i in starts if i >= start), b)
    after = next((i for i in starts if i >= stop), b)
    return [u for u in units if first <= u[0] < after]


@settings(max_examples=150, deadline=None)
@given(cases(strategy="goal_return", with_boundary=True))
def test_goal_return_removes_the_returned_goal_last(case: Case) -> None:
    """No unit of the returned-to goal goes while another pre-boundary unit stays."""
    plan = case.plan()
    b = case.boundary
    if plan.phase != "pre_boundary" or b is None:
        return
    roles = [m["role"] for m in case.messages]

    def starts_unit(i: int) -> bool:
        return i == 0 or i == b or roles[i] not in TOOL_ROLES

    units = [(i, unit_end(roles, i, b)) for i in range(b) if starts_unit(i)]
    protected = _protected_units(case, units, b)
    assume(protected)
    removed = {i for span in plan.removed for i in span.indices}
    if any(i in removed for start, stop in protected for i in range(start, stop)):
        assert all(start in removed for start, _ in units if (start, _) not in protected)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_drop_only_plans_match_the_straightforward_reference(case: Case) -> None:
    """Without a summary, every strategy keeps exactly what the slow reference algorithm keeps."""
    plan = case.plan()
    if plan.compaction_used:
        return
    assert list(plan.kept) == reference_kept(case)


edits = st.lists(
    st.tuples(
        st.sampled_from(["append", "replace", "reassign", "truncate", "copy", "tuple"]),
        st.integers(0, 30),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(edits)
def test_sizes_follow_every_edit_of_a_planned_conversation(operations: list[Any]) -> None:
    """However a planned list is edited between plannings, its sizes are its messages' sizes now."""
    history: list[dict[str, Any]] = [message("user", 3, 0)]
    for step, (operation, number) in enumerate(operations):
        if operation == "append":
            history.append(message("assistant" if step % 2 else "user", number, step))
        elif operation == "replace" and history:
            history[number % len(history)] = message("user", number, step)
        elif operation == "reassign" and history:
            history[number % len(history)]["content"] = "r" * number  # same dict, new content
        elif operation == "truncate":
            del history[number % (len(history) + 1) :]
        elif operation == "copy":
            history = [dict(m) for m in history]
        planned: Any = tuple(history) if operation == "tuple" else history
        plan = plan_trim(planned, budget=0, counter=COUNTER)
        assert plan.before.total == sum(COUNTER.message_size(m) for m in history)
        assert plan.before.messages == len(history)
