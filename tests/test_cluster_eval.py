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
# Committed (4a233d3) before the v2 sketch and its pre-registration amendment.
HELDOUT_2 = ROOT / "data" / "clone-families" / "heldout-2"
HELDOUT_2_SHA256 = "74092f2c87d79c8635e4ba92dc62242d8a956dfa4a2a31607122c635532b0210"
# Committed (e735b47) before the v3 sketch and its pre-registration amendment (f16ce7c).
HELDOUT_3 = ROOT / "data" / "clone-families" / "heldout-3"
HELDOUT_3_SHA256 = "40828e85a38d90826e9f8e74ebe2e8604dd3f11afad01948aa8ebc8b32bfa01a"


@pytest.mark.parametrize(
    ("folder", "sha256"),
    [(HELDOUT, HELDOUT_SHA256), (HELDOUT_2, HELDOUT_2_SHA256), (HELDOUT_3, HELDOUT_3_SHA256)],
)
def test_the_held_out_sets_are_the_ones_committed_before_their_runs(
    folder: Path, sha256: str
) -> None:
    digest = hashlib.sha256((folder / "families.json").read_bytes()).hexdigest()
    assert digest == sha256
    _, programs = load_programs(folder)  # every program still matches its code_sha256
    assert len(programs) >= 60
    assert {p.language for p in programs} == {"python", "ruby"}
    assert sum(p.hard_negative_of is not None for p in programs) >= 10


def test_the_default_settings_are_the_shipped_preregistration() -> None:
    assert load_preregistration(default_preregistration_path()).clusters == DEFAULT_CLUSTERS


def test_the_figures_docs_quote() -> None:
    """docs/detector.md ("Clusters") quotes these; change them together."""
    dev = evaluate_families(DEV, DEFAULT_CLUSTERS, sweep=())
    held = evaluate_families(HELDOUT, DEFAULT_CLUSTERS, sweep=())
    held_2 = evaluate_families(HELDOUT_2, DEFAULT_CLUSTERS, sweep=())
    held_3 = evaluate_families(HELDOUT_3, DEFAULT_CLUSTERS, sweep=())
    assert (dev.correct_pairs, dev.predicted_pairs, dev.true_pairs) == (68, 68, 68)
    assert (held.correct_pairs, held.predicted_pairs, held.true_pairs) == (107, 110, 110)
    assert (held.exact_correct_pairs, held.exact_predicted_pairs) == (0, 2)
    assert (held_2.correct_pairs, held_2.predicted_pairs, held_2.true_pairs) == (58, 65, 150)
    assert (held_3.correct_pairs, held_3.predicted_pairs, held_3.true_pairs) == (37, 51, 134)
    docs = (ROOT / "docs" / "detector.md").read_text()
    assert (
        "| heldout-3 | 93 | 34 | 17 | 0.8 | 59 | 0.73 | 0.28 | 37 / 51 / 134 | 0.91 | 7 |" in docs
    )


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
