"""Tests for recurscope.instrumentation.goals: need similarity, reasons, positions, markers."""

from __future__ import annotations

from typing import Any

import pytest

from recurscope.instrumentation import semconv
from recurscope.instrumentation.goals import (
    DEFAULT_SIMILARITY_THRESHOLD,
    NeedTracker,
    need_hash,
    need_similarity,
)


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


@pytest.fixture
def tracker() -> NeedTracker:
    return NeedTracker()


# --- similarity ------------------------------------------------------------------

# The calibration pairs docs/goals.md quotes for the default threshold.
SAME_TASK = [
    ("Fix the failing login test", "Fix the failing login tests"),
    ("Refactor the payment module to use async IO", "Refactor payment module to async IO"),
    ("Write a README for the project", "Write the project README"),
    ("Add retry logic to the HTTP client", "Add retries to the HTTP client with backoff"),
    ("Summarize the Q3 sales report", "Summarize Q3 sales report for the board"),
    ("Find why the build fails on CI", "Investigate why the CI build fails"),
    ("Translate the onboarding docs into German", "Translate onboarding documentation to German"),
]
DIFFERENT_GOALS = [
    ("Fix the failing login test", "Write a README for the project"),
    ("Refactor the payment module to use async IO", "Add retry logic to the HTTP client"),
    ("Summarize the Q3 sales report", "Summarize the Q4 marketing plan"),
    ("Find why the build fails on CI", "Find a cheap flight to Berlin"),
    ("Translate the onboarding docs into German", "Write the onboarding docs"),
    ("Book a table for two tonight", "Fix the failing login test"),
]


@pytest.mark.parametrize(("a", "b"), SAME_TASK)
def test_rewordings_of_one_task_reach_the_default_threshold(a: str, b: str) -> None:
    """Rewordings of the same task score at or above the default threshold."""
    assert need_similarity(a, b) >= DEFAULT_SIMILARITY_THRESHOLD


@pytest.mark.parametrize(("a", "b"), DIFFERENT_GOALS)
def test_different_goals_stay_below_the_default_threshold(a: str, b: str) -> None:
    """Different goals score below the default threshold."""
    assert need_similarity(a, b) < DEFAULT_SIMILARITY_THRESHOLD


def test_similarity_is_symmetric_bounded_and_normalized() -> None:
    """Similarity is symmetric, in [0, 1], 1.0 for texts equal up to case and spacing."""
    a, b = "Deploy the API to staging", "roll back the database migration"
    assert need_similarity(a, b) == need_similarity(b, a)
    assert 0.0 <= need_similarity(a, b) <= 1.0
    assert need_similarity("Deploy  the API", "deploy the api") == 1.0
    assert need_similarity("", "") == 1.0
    assert need_similarity("", "anything") == 0.0


def test_stopword_only_needs_still_compare() -> None:
    """A need made only of function words is compared on those words rather than scoring 0."""
    assert need_similarity("do it", "do it now") > 0.0


def test_need_hash_is_sha256_prefix_of_normalized_text() -> None:
    """need_hash is 16 hex digits and ignores case and whitespace differences."""
    assert len(need_hash("Fix it")) == 16
    assert need_hash("Fix  it") == need_hash("fix it")
    assert need_hash("fix it") != need_hash("fix that")


# --- positions and boundaries ----------------------------------------------------


def test_first_turn_need_has_position_one_and_is_set(tracker: NeedTracker) -> None:
    """A need recorded before the first user message sits at position 1 and is set (not unset)."""
    shift = tracker.record_need("Fix the failing login test", [])
    assert shift.position == 1
    assert shift.boundary_to == 0
    assert tracker.position == 1
    assert tracker.boundary == 0
    assert tracker.position is not None  # the old off-by-one stored 0, which read as unset


def test_position_is_history_length_plus_one(tracker: NeedTracker) -> None:
    """The need's position is len(history) + 1 because its user message is not appended yet."""
    history = [user("a"), assistant("b"), user("c"), assistant("d")]
    shift = tracker.record_need("Write the project README", history)
    assert shift.position == 5
    assert shift.boundary_to == 4
    assert tracker.boundary == 4


def test_tracker_starts_without_a_boundary(tracker: NeedTracker) -> None:
    """Before any need, there is no boundary, position or marker."""
    assert tracker.boundary is None
    assert tracker.position is None
    assert tracker.goal_changed is False
    assert tracker.needs == ()


def test_boundary_from_is_the_previous_boundary(tracker: NeedTracker) -> None:
    """Each shift reports the boundary it moved from (None for the first need)."""
    first = tracker.record_need("Fix the failing login test", 0)
    second = tracker.record_need("Write the project README", 6)
    assert first.boundary_from is None
    assert second.boundary_from == 0
    assert second.boundary_to == 6
    assert [s.need_count for s in tracker.needs] == [1, 2]


# --- supersedes earlier and the marker ---------------------------------------------


def test_supersedes_earlier_needs_a_user_turn_before_it(tracker: NeedTracker) -> None:
    """A need supersedes earlier requests only when a user message precedes it."""
    shift = tracker.record_need("Summarize the Q3 sales report", [assistant("Hello!")])
    assert shift.supersedes_earlier is False
    assert shift.changed_marker is False


def test_int_history_supersedes_when_positive(tracker: NeedTracker) -> None:
    """With a bare message count, any earlier message counts as an earlier user turn."""
    assert tracker.record_need("Fix the failing login test", 0).supersedes_earlier is False
    assert tracker.record_need("Write the project README", 3).supersedes_earlier is True


def test_new_goal_after_user_turns_raises_the_marker(tracker: NeedTracker) -> None:
    """Switching goals after earlier user turns raises the "Goal changed" marker."""
    tracker.record_need("Fix the failing login test", [])
    shift = tracker.record_need("Write a README for the project", [user("fix it"), assistant("ok")])
    assert shift.reason == "new_goal"
    assert shift.changed_marker is True
    assert tracker.goal_changed is True


def test_first_need_after_user_turns_raises_the_marker(tracker: NeedTracker) -> None:
    """A first need declared after user turns supersedes them and raises the marker."""
    shift = tracker.record_need("Write the project README", [user("hi"), assistant("hello")])
    assert shift.reason == "first_need"
    assert shift.changed_marker is True


# --- reasons -------------------------------------------------------------------------


def test_same_task_reemit_moves_the_boundary_without_the_marker(tracker: NeedTracker) -> None:
    """Re-emitting the same task moves the boundary (lossy) but raises no marker."""
    tracker.record_need("Fix the failing login test", [])
    history = [user("fix login"), assistant("on it"), user("still failing")]
    shift = tracker.record_need("Fix the failing login tests", history)
    assert shift.reason == "same_task_reemit"
    assert shift.boundary_from == 0
    assert shift.boundary_to == 3
    assert shift.changed_marker is False
    assert shift.similarity is not None and shift.similarity >= shift.similarity_threshold


def test_reemit_keeps_an_earlier_goal_change_marker(tracker: NeedTracker) -> None:
    """A same-task re-emit neither raises nor clears a marker raised by an earlier switch."""
    tracker.record_need("Fix the failing login test", 0)
    tracker.record_need("Write a README for the project", 4)
    assert tracker.goal_changed is True
    tracker.record_need("Write the project README", 8)
    assert tracker.needs[-1].reason == "same_task_reemit"
    assert tracker.goal_changed is True


def test_returning_to_an_earlier_goal_is_resumed_goal(tracker: NeedTracker) -> None:
    """A -> B -> back to A is resumed_goal, naming the earlier need it matched."""
    tracker.record_need("Fix the failing login test", 0)
    tracker.record_need("Write a README for the project", 4)
    shift = tracker.record_need("Fix the failing login tests again", 8)
    assert shift.reason == "resumed_goal"
    assert shift.resumed_need == 1
    assert shift.changed_marker is True
    assert shift.similarity is not None and shift.similarity < shift.similarity_threshold


def test_escalation_flag_wins_over_similarity(tracker: NeedTracker) -> None:
    """An escalation need is reason escalation, even for the same task."""
    tracker.record_need("Fix the failing login test", 0)
    shift = tracker.record_need("Fix the failing login test", 4, escalation=True)
    assert shift.reason == "escalation"
    assert shift.changed_marker is False  # same task: no "Goal changed"


def test_first_need_has_no_similarity(tracker: NeedTracker) -> None:
    """The first need has no previous need to compare with."""
    shift = tracker.record_need("Fix the failing login test", 0)
    assert shift.reason == "first_need"
    assert shift.similarity is None


def test_threshold_is_configurable_and_validated() -> None:
    """A stricter threshold turns a re-emit into a new goal; nonsense thresholds are rejected."""
    strict = NeedTracker(similarity_threshold=0.99)
    strict.record_need("Fix the failing login test", 0)
    assert strict.record_need("Fix the failing login tests", 4).reason == "new_goal"
    with pytest.raises(ValueError, match="similarity_threshold"):
        NeedTracker(similarity_threshold=0)
    with pytest.raises(ValueError, match="similarity_threshold"):
        NeedTracker(similarity_threshold=1.5)


# --- attributes and validation ----------------------------------------------------------


def test_attributes_omit_need_text_unless_content_capture(tracker: NeedTracker) -> None:
    """Attributes carry hash and size always, the need text only with capture_content."""
    tracker.record_need("Fix the failing login test", 0)
    shift = tracker.record_need("Write a README for the project", 2)
    attrs = shift.attributes()
    assert semconv.GOAL_NEED_TEXT not in attrs
    assert attrs[semconv.GOAL_NEED_HASH] == need_hash("Write a README for the project")
    assert attrs[semconv.GOAL_NEED_SIZE] == len("Write a README for the project")
    assert attrs[semconv.GOAL_REASON] == "new_goal"
    assert attrs[semconv.GOAL_POSITION] == 3
    assert attrs[semconv.GOAL_BOUNDARY_FROM] == 0
    assert attrs[semconv.GOAL_BOUNDARY_TO] == 2
    assert attrs[semconv.GOAL_NEED_COUNT] == 2
    assert attrs[semconv.GOAL_CHANGED_MARKER] is True
    captured = shift.attributes(capture_content=True)
    assert captured[semconv.GOAL_NEED_TEXT] == "Write a README for the project"


def test_first_need_attributes_have_no_from_or_similarity(tracker: NeedTracker) -> None:
    """Attributes that do not apply to a first need are absent, not null."""
    attrs = tracker.record_need("Fix the failing login test", 0).attributes()
    assert semconv.GOAL_BOUNDARY_FROM not in attrs
    assert semconv.GOAL_SIMILARITY not in attrs
    assert attrs[semconv.GOAL_SIMILARITY_THRESHOLD] == DEFAULT_SIMILARITY_THRESHOLD


def test_malformed_arguments_say_what_to_pass(tracker: NeedTracker) -> None:
    """Wrong argument types raise TypeError/ValueError with what to pass instead."""
    bad_need: Any = 42
    with pytest.raises(TypeError, match="need must be"):
        tracker.record_need(bad_need, 0)
    with pytest.raises(ValueError, match="message count >= 0"):
        tracker.record_need("x", -1)
    bad_history: Any = "user: hi"
    with pytest.raises(TypeError, match="message list"):
        tracker.record_need("x", bad_history)
    with pytest.raises(TypeError, match="mappings"):
        tracker.record_need("x", [("user", "hi")])
    assert tracker.needs == ()  # nothing recorded by failed calls


def test_returned_goal_spans_the_resumed_goals_first_visit() -> None:
    """A resumed goal's earlier turns: from its need's boundary to the next goal's."""
    tracker = NeedTracker()
    tracker.record_need("plan a trip to Mexico for the Day of the Dead festival", 0)
    assert tracker.returned_goal is None
    tracker.record_need("fix my python unit tests", 4)
    tracker.record_need("fix my python unit tests please", 6)  # same task: no new goal
    tracker.record_need("write a poem about autumn leaves", 8)
    assert tracker.returned_goal is None
    shift = tracker.record_need("plan a trip to Mexico for the Day of the Dead festival", 12)
    assert shift is not None and shift.reason == "resumed_goal"
    assert tracker.returned_goal == (0, 4)
    # A re-emit of the resumed goal keeps it; a new goal ends it.
    tracker.record_need("plan a trip to Mexico for the Day of the Dead festival!", 14)
    assert tracker.returned_goal == (0, 4)
    tracker.record_need("translate this letter into German", 16)
    assert tracker.returned_goal is None


def test_returned_goal_skips_the_resumed_goals_own_reemits() -> None:
    tracker = NeedTracker()
    tracker.record_need("write a poem about autumn leaves", 0)
    tracker.record_need("fix my python unit tests", 2)
    tracker.record_need("fix my python unit tests please", 4)
    tracker.record_need("translate this letter into German", 6)
    tracker.record_need("fix my python unit tests", 8)
    assert tracker.returned_goal == (2, 6)
