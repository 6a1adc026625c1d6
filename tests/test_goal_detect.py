"""The goal-switch heuristic replay uses: its rules, hostile text, and the figures docs quote."""

from __future__ import annotations

import hashlib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.pipeline.replay.goal_detect import HeuristicDetector, Switch, terms
from recurscope.pipeline.replay.goal_eval import (
    NeedSimilarityBaseline,
    evaluate_goals,
    load_labelled,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "goal-switches"

DAY_OF_THE_DEAD = [
    {"role": "user", "content": "What does the Day of the Dead celebrate?"},
    {
        "role": "assistant",
        "content": "Día de los Muertos is a Mexican festival honoring deceased loved ones, "
        "with altars called ofrendas, marigolds and sugar skulls.",
    },
    {"role": "user", "content": "Can you recommend a sci-fi novel?"},
    {"role": "assistant", "content": "Try The Left Hand of Darkness by Ursula K. Le Guin."},
    {"role": "user", "content": "And how do people prepare for the festival?"},
]


def run(messages: list[dict[str, str]]) -> list[Switch]:
    detector, earlier = HeuristicDetector(), []
    for index, message in enumerate(messages):
        if message["role"] == "user":
            earlier.append(detector.classify(messages, index, earlier))
    return earlier


def test_a_return_phrased_without_the_goals_words_is_found_through_the_answer() -> None:
    """'the festival' appears only in the first answer: the third turn returns to goal 0."""
    first, second, third = run(DAY_OF_THE_DEAD)
    assert (first.reason, second.reason) == ("first_need", "new_goal")
    assert (third.reason, third.returns_to, third.goal_start) == ("return", 0, 0)


def test_a_follow_up_with_nothing_of_its_own_continues_the_current_goal() -> None:
    messages = [
        {"role": "user", "content": "How do I bake sourdough bread?"},
        {"role": "assistant", "content": "Feed a starter, mix flour and water, proof, bake."},
        {"role": "user", "content": "and the cost?"},
    ]
    assert run(messages)[-1].reason == "same_task"


def test_stems_merge_inflections() -> None:
    assert terms("festivals preparing") == terms("festival prepared")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=200), min_size=1, max_size=8))
def test_any_text_gets_a_switch_and_never_raises(turns: list[str]) -> None:
    messages: list[dict[str, str]] = []
    for text in turns:
        messages += [{"role": "user", "content": text}, {"role": "assistant", "content": text}]
    switches = run(messages)
    assert switches[0].reason == "first_need"
    starts = {0}
    for index, switch in zip(range(2, 2 * len(turns), 2), switches[1:], strict=True):
        assert switch.goal_start <= index
        if switch.reason == "return":
            assert switch.returns_to in starts
        if switch.reason == "new_goal":
            starts.add(index)


def _figures(path: Path, detector: object = None) -> dict[str, tuple[int, int, int]]:
    result = evaluate_goals(path, detector)  # type: ignore[arg-type]
    rows = (*result.scores, result.return_any_goal)
    return {s.reason: (s.tp, s.fp, s.fn) for s in rows}


def test_the_dev_figures_docs_quote() -> None:
    assert len(load_labelled(DATA / "dev")) == 80
    assert _figures(DATA / "dev") == {
        "same_task": (68, 24, 29),
        "new_goal": (103, 45, 2),
        "return": (56, 6, 44),
        "return (any earlier goal)": (59, 3, 41),
    }
    assert _figures(DATA / "dev", NeedSimilarityBaseline())["return"] == (0, 0, 100)


def test_the_held_out_figures_docs_quote() -> None:
    """Written blind, pinned by hash, run once: returns P 0.74 R 0.39 (targets not met)."""
    data = (DATA / "heldout" / "conversations.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest() == (
        "72ceb636d35f9256305a09d989987ecb97f2a76e6fdb657b51bb16efe7218b4a"
    )
    assert _figures(DATA / "heldout") == {
        "same_task": (37, 24, 26),
        "new_goal": (76, 46, 8),
        "return": (29, 10, 46),
        "return (any earlier goal)": (34, 5, 41),
    }
    docs = (DATA.parents[1] / "docs" / "goals.md").read_text(encoding="utf-8")
    assert "| **held-out** | **heuristic** | **0.74** | **0.39** |" in docs


def test_the_second_held_out_figures_docs_quote() -> None:
    """The heuristic on heldout-2, run beside the embedding detector's one run."""
    assert _figures(DATA / "heldout-2") == {
        "same_task": (61, 19, 55),
        "new_goal": (115, 78, 7),
        "return": (65, 17, 52),
        "return (any earlier goal)": (72, 10, 45),
    }
