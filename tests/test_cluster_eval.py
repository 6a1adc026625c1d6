"""recurscope cluster-eval: the labelled clone families, pinned, and the figures docs quote."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from recurscope.cli import main
from recurscope.pipeline.evidence.cluster_eval import (
    FamiliesError,
    evaluate_families,
    load_programs,
)
from recurscope.pipeline.evidence.clusters import DEFAULT_CLUSTERS
from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration

ROOT = Path(__file__).resolve().parent.parent
DEV = ROOT / "data" / "clone-families" / "dev"
HELDOUT = ROOT / "data" / "clone-families" / "heldout"
HELDOUT_SHA256 = "b6ad3efc9e704b4244ac0d6595c718275dd11bbbd54ec55418935d9af97ca4c3"


def test_the_held_out_set_is_the_one_committed_before_the_first_run() -> None:
    digest = hashlib.sha256((HELDOUT / "families.json").read_bytes()).hexdigest()
    assert digest == HELDOUT_SHA256
    _, programs = load_programs(HELDOUT)  # every program still matches its code_sha256
    assert len(programs) >= 60
    assert {p.language for p in programs} == {"python", "ruby"}
    assert sum(p.hard_negative_of is not None for p in programs) >= 10


def test_the_default_settings_are_the_shipped_preregistration() -> None:
    assert load_preregistration(default_preregistration_path()).clusters == DEFAULT_CLUSTERS


def test_the_figures_docs_quote() -> None:
    """docs/detector.md ("Clusters") quotes these; change them together."""
    dev = evaluate_families(DEV, DEFAULT_CLUSTERS, sweep=())
    held = evaluate_families(HELDOUT, DEFAULT_CLUSTERS, sweep=())
    assert (dev.correct_pairs, dev.predicted_pairs, dev.true_pairs) == (36, 36, 68)
    assert (held.correct_pairs, held.predicted_pairs, held.true_pairs) == (18, 21, 110)
    assert (held.exact_correct_pairs, held.exact_predicted_pairs) == (0, 2)
    docs = (ROOT / "docs" / "detector.md").read_text()
    assert "| heldout | 80 | 30 | 15 | 0.7 | 64 | 0.86 | 0.16 | 18 / 21 / 110 | 0.96 | 1 |" in docs


def test_the_command_prints_json_and_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cluster-eval", "--families", str(DEV), "--format", "json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert result["set_name"] == "dev" and result["precision"] == 1.0
    assert [p["similarity"] for p in result["sweep"]] == [0.5, 0.6, 0.7, 0.8, 0.9]

    assert main(["cluster-eval", "--families", str(tmp_path)]) == 1
    assert "families.json" in capsys.readouterr().err

    with pytest.raises(SystemExit) as exit_info:
        main(["cluster-eval", "--similarity", "2"])
    assert exit_info.value.code == 2
    assert "(0, 1]" in capsys.readouterr().err

    edited = tmp_path / "edited"
    shutil.copytree(DEV, edited)
    first = json.loads((edited / "families.json").read_text())["entries"][0]
    (edited / first["source"].removeprefix("file:")).write_text("result = 1\n")
    with pytest.raises(FamiliesError, match="no longer matches code_sha256"):
        load_programs(edited)
