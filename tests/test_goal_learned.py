"""The trained goal-switch detector: its features and model file, the shipped weights, figures."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.pipeline.replay.goal_detect import Switch
from recurscope.pipeline.replay.goal_embed import EmbeddingDetector, bundled_minilm
from recurscope.pipeline.replay.goal_learned import (
    ANSWER_FEATURES,
    CLASSES,
    FEATURES,
    RANK_FEATURES,
    GoalModel,
    LearnedDetector,
    answer_features,
    answer_of,
    turn_features,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "goal-switches"
SHIPPED = ROOT / "pipeline" / "replay" / "goal_model.json"
SHIPPED_V2 = ROOT / "pipeline" / "replay" / "goal_model_v2.json"


def hashed_embedder(texts: Sequence[str]) -> np.ndarray:
    """A stand-in model: bag of words hashed into 16 dimensions, L2-normalized."""
    out = np.zeros((len(texts), 16), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            out[row, sum(map(ord, word)) % 16] += 1
        norm = np.linalg.norm(out[row])
        if norm:
            out[row] /= norm
    return out


def run(
    detector: LearnedDetector, user_turns: Sequence[str], *, answered: bool = False
) -> list[Switch]:
    """Classify each turn before its answer is appended, or (``answered``) after it."""
    messages: list[dict[str, str]] = []
    earlier: list[Switch] = []
    for text in user_turns:
        messages.append({"role": "user", "content": text})
        answer = {"role": "assistant", "content": f"About {text[:20]}: noted."}
        if answered:
            messages.append(answer)
            earlier.append(detector.classify(messages, len(messages) - 2, earlier))
        else:
            earlier.append(detector.classify(messages, len(messages) - 1, earlier))
            messages.append(answer)
    return earlier


def test_the_shipped_model_names_this_code_s_features_and_classes() -> None:
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURES + ANSWER_FEATURES
    assert tuple(data["classes"]) == CLASSES and data["version"] == 3
    assert tuple(data["ranker"]["features"]) == RANK_FEATURES
    model = GoalModel.shipped()
    assert model.reads_answer and model.coef.shape == (len(CLASSES), 36)
    assert set(model.trained_on["sets"]) == {
        "dev",
        "heldout",
        "heldout-2",
        "heldout-3",
        "heldout-4",
    }
    assert "heldout-5" not in model.trained_on["sets"]  # its one run measures this model
    probabilities = model.probabilities(np.zeros(36))
    assert probabilities.shape == (3,) and abs(probabilities.sum() - 1) < 1e-12
    blind = GoalModel.answer_blind()
    assert not blind.reads_answer and blind.coef.shape == (len(CLASSES), len(FEATURES))
    assert set(blind.trained_on["sets"]) == {"dev", "heldout", "heldout-2", "heldout-3"}


@pytest.mark.parametrize("path", [SHIPPED, SHIPPED_V2])
def test_a_model_file_for_other_features_is_refused(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="features or classes are not this code's"):
        GoalModel.from_json(data)


def test_a_version_3_model_without_its_ranker_is_refused() -> None:
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    del data["ranker"]
    with pytest.raises(ValueError, match="needs a ranker"):
        GoalModel.from_json(data)
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    data["ranker"]["features"] = data["ranker"]["features"][1:]
    with pytest.raises(ValueError, match="needs a ranker"):
        GoalModel.from_json(data)


CACTUS_THEN_LYON = (
    {"role": "user", "content": "How do I repot a cactus?"},
    {"role": "assistant", "content": "Use gloves and gritty soil."},
    {"role": "user", "content": "Totally different: best train to Lyon?"},
    {"role": "assistant", "content": "The TGV from Gare de Lyon."},
    {"role": "user", "content": "and the soil again?"},
)
"""A goal, a new one, and a follow-up of the first (user turn 4), not yet answered."""
CACTUS_THEN_LYON_SWITCHES = (Switch("first_need", 0), Switch("new_goal", 2))


def test_features_are_one_row_of_the_named_length() -> None:
    messages, earlier = list(CACTUS_THEN_LYON), list(CACTUS_THEN_LYON_SWITCHES)
    values, current, closest = turn_features(
        messages, 4, earlier, EmbeddingDetector(hashed_embedder)
    )
    assert values.shape == (len(FEATURES),) and np.isfinite(values).all()
    assert (current, closest) == (2, 0)
    assert values[FEATURES.index("new_topic_cue")] == 0.0
    assert values[FEATURES.index("follow_up_cue")] == 1.0


def test_the_answer_features_read_the_answer_the_turn_got_and_nothing_later() -> None:
    messages, earlier = list(CACTUS_THEN_LYON), list(CACTUS_THEN_LYON_SWITCHES)
    vectors = EmbeddingDetector(hashed_embedder)
    ranker = GoalModel.shipped().ranker
    assert ranker is not None
    unanswered, ranked = answer_features(messages, 4, earlier, vectors, ranker)
    assert unanswered.shape == (len(ANSWER_FEATURES),) and np.isfinite(unanswered).all()
    assert ranked == 0  # the only earlier goal
    answer_columns = [i for i, name in enumerate(ANSWER_FEATURES) if name.startswith("answer_")]
    assert not unanswered[answer_columns].any()  # no answer yet: the answer features are 0
    answered = [*messages, {"role": "assistant", "content": "Gritty soil: cactus soil with sand."}]
    later = [*answered, {"role": "user", "content": "gritty soil cactus sand gloves"}]
    with_answer, _ = answer_features(answered, 4, earlier, vectors, ranker)
    assert with_answer[answer_columns].any()
    assert answer_of(answered, 4) == answered[5]["content"] and answer_of(messages, 4) == ""
    np.testing.assert_array_equal(
        answer_features(later, 4, earlier, vectors, ranker)[0], with_answer
    )
    assert answer_of(answered[:3] + answered[4:], 2) == ""  # a user turn next: no answer
    tool_first = [
        *messages,
        {"role": "assistant", "content": ""},  # a tool call, no text
        {"role": "tool", "content": "soil: 2 parts grit"},
        {"role": "assistant", "content": "Gritty soil: cactus soil with sand."},
    ]
    assert answer_of(tool_first, 4) == "Gritty soil: cactus soil with sand."


@pytest.mark.parametrize("answered", [False, True])
@settings(max_examples=40, deadline=None)
@given(turns=st.lists(st.text(max_size=120), min_size=1, max_size=7))
def test_any_text_gets_a_valid_switch(turns: list[str], answered: bool) -> None:
    switches = run(LearnedDetector(hashed_embedder), turns, answered=answered)
    assert switches[0].reason == "first_need"
    starts = {0}
    for index, switch in zip(range(2, 2 * len(turns), 2), switches[1:], strict=True):
        if switch.reason == "return":
            assert switch.returns_to in starts and switch.goal_start == switch.returns_to
        elif switch.reason == "new_goal":
            assert switch.goal_start == index
            starts.add(index)
        else:
            assert switch.reason == "same_task" and switch.goal_start in starts


# -- the real model -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vectors() -> EmbeddingDetector:
    """One embedding cache for the module: the refit and the figures embed the same texts."""
    pytest.importorskip("sentence_transformers", reason="needs recurscope[embeddings]")
    return EmbeddingDetector(bundled_minilm())


@pytest.mark.slow
def test_the_shipped_weights_are_what_the_training_script_fits(vectors: EmbeddingDetector) -> None:
    pytest.importorskip("sklearn", reason="the training script needs scikit-learn")
    sys.path.insert(0, str(ROOT / "tools"))
    from train_goal_model import BLIND_SETS, SETS, fit

    for sets, reads_answer, path in ((SETS, True, SHIPPED), (BLIND_SETS, False, SHIPPED_V2)):
        refit = fit([DATA / name for name in sets], vectors, reads_answer=reads_answer)
        shipped = json.loads(path.read_text(encoding="utf-8"))
        assert refit["version"] == shipped["version"]
        assert refit["trained_on"]["sets"] == shipped["trained_on"]["sets"]
        assert refit["trained_on"]["per_class"] == shipped["trained_on"]["per_class"]
        for key in ("mean", "scale", "coef", "intercept"):
            np.testing.assert_allclose(refit[key], shipped[key], rtol=1e-5, atol=1e-6)
        if reads_answer:
            for key in ("mean", "scale", "coef", "intercept"):
                np.testing.assert_allclose(
                    refit["ranker"][key], shipped["ranker"][key], rtol=1e-5, atol=1e-6
                )


def _figures(path: Path, detector: object) -> dict[str, tuple[int, int, int]]:
    from recurscope.pipeline.replay.goal_eval import evaluate_goals

    result = evaluate_goals(path, detector)  # type: ignore[arg-type]
    return {s.reason: (s.tp, s.fp, s.fn) for s in (*result.scores, result.return_any_goal)}


@pytest.mark.slow
def test_the_held_out_figures_docs_quote(vectors: EmbeddingDetector) -> None:
    """heldout-3: written blind, committed before model version 1, run once for three detectors.

    Version 1 is re-fitted here (its recipe: dev, heldout, heldout-2, C = 1); the shipped
    version 2 was fitted afterwards with heldout-3 among its training sets.
    """
    import hashlib

    from recurscope.pipeline.replay.goal_detect import HeuristicDetector

    sys.path.insert(0, str(ROOT / "tools"))
    from train_goal_model import fit

    data = (DATA / "heldout-3" / "conversations.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest().startswith("b71ceaf1861dd512")
    version_1 = fit(
        [DATA / s for s in ("dev", "heldout", "heldout-2")], vectors, c=1.0, reads_answer=False
    )
    learned = LearnedDetector(model=GoalModel.from_json(version_1))
    learned._vectors = vectors  # the module's embedding cache
    assert _figures(DATA / "heldout-3", learned) == {
        "same_task": (110, 17, 10),
        "new_goal": (140, 11, 17),
        "return": (143, 17, 18),
        "return (any earlier goal)": (148, 12, 13),
    }
    assert _figures(DATA / "heldout-3", vectors)["return"] == (134, 28, 27)  # the rules
    assert _figures(DATA / "heldout-3", HeuristicDetector())["return"] == (85, 29, 76)
    docs = (ROOT / "docs" / "goals.md").read_text(encoding="utf-8")
    assert "| **heldout-3** | **learned** | **0.89** | **0.89** |" in docs


@pytest.mark.slow
def test_the_adversarial_held_out_figures_docs_quote(vectors: EmbeddingDetector) -> None:
    """heldout-4: written blind to tempt false returns, run once with version 2 (then shipped)."""
    import hashlib

    data = (DATA / "heldout-4" / "conversations.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest().startswith("5e66bff79c1bc909")
    learned = LearnedDetector(model=GoalModel.answer_blind())
    learned._vectors = vectors
    assert _figures(DATA / "heldout-4", learned) == {
        "same_task": (28, 84, 11),
        "new_goal": (138, 19, 58),
        "return": (148, 52, 86),
        "return (any earlier goal)": (169, 31, 65),
    }
    docs = (ROOT / "docs" / "goals.md").read_text(encoding="utf-8")
    assert "| **heldout-4** | **learned (version 2, shipped)** | **0.74** | **0.63** |" in docs


@pytest.mark.slow
def test_the_heldout_5_figures_docs_quote(vectors: EmbeddingDetector) -> None:
    """heldout-5: written blind, committed before version 3 existed, run once (both versions)."""
    import hashlib

    data = (DATA / "heldout-5" / "conversations.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest().startswith("7d9ad82f14288b5b")
    version_3 = LearnedDetector()
    version_3._vectors = vectors
    assert _figures(DATA / "heldout-5", version_3) == {
        "same_task": (181, 10, 8),
        "new_goal": (132, 7, 5),
        "return": (118, 9, 13),
        "return (any earlier goal)": (122, 5, 9),
    }
    version_2 = LearnedDetector(model=GoalModel.answer_blind())
    version_2._vectors = vectors
    assert _figures(DATA / "heldout-5", version_2)["return"] == (106, 15, 25)
    assert _figures(DATA / "heldout-5", vectors)["return"] == (87, 24, 44)  # the rules
    docs = (ROOT / "docs" / "goals.md").read_text(encoding="utf-8")
    assert "| **heldout-5** | **learned (version 3, shipped)** | **0.93** | **0.90** |" in docs
