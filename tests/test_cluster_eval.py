"""recurscope cluster-eval: the labelled clone families, pinned, and the figures docs quote."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from recurscope.cli import main
from recurscope.instrumentation.analysis._behaviour import SCHEME
from recurscope.pipeline.evidence.blind_runs import load_blind_runs
from recurscope.pipeline.evidence.cluster_eval import (
    FamiliesError,
    evaluate_families,
    load_programs,
)
from recurscope.pipeline.evidence.clusters import DEFAULT_CLUSTERS
from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "data" / "clone-families"
DEV = SETS / "dev"
# Each held-out set's families.json as committed before the one run it was written for.
HELD_OUT_SHA256 = {
    # Committed (5e4a147) before its one run with the v1 sketch.
    "heldout": "b6ad3efc9e704b4244ac0d6595c718275dd11bbbd54ec55418935d9af97ca4c3",
    # Committed (4a233d3) before the v2 sketch and its pre-registration amendment.
    "heldout-2": "74092f2c87d79c8635e4ba92dc62242d8a956dfa4a2a31607122c635532b0210",
    # Committed (e735b47) before the v3 sketch and its pre-registration amendment (f16ce7c).
    "heldout-3": "40828e85a38d90826e9f8e74ebe2e8604dd3f11afad01948aa8ebc8b32bfa01a",
    # Committed (4836323) before the behavioural sketch and its amendment (version 6, c512df8).
    "heldout-4": "25326fabf12b504de53a06ebe50acfc9c9c1c90832751b665a02c3e1ed460803",
    # Committed (1a0361b) after the mended probes were registered (version 7, e198439).
    "heldout-5": "ab277cb5b720878a9dc806b8107e6a8079762ffb323679ca01b094e9d650e99d",
    # Committed (f1e4a24) before behaviour v3 and its amendment (version 8, 03e79f7).
    "heldout-6": "20f4005d593b366a07029a401e49d8bc62e0069adfe134eef953176d0af952e6",
    # Committed (f69da57) before behaviour v4 and its amendment (version 9, b9177bc).
    "heldout-7": "754f560f99034ab19e9b7bf85e6fe681dfa35fbb812646e45f34c64b9522f7a5",
    # Committed (b45195b) before behaviour v5 and its amendment (version 10, c92ffb0).
    "heldout-8": "3aa3ab53cd9d3017fac113500dadd8bd861e96dfe44972bf9b70702975be49d1",
    # Committed (649b358) before behaviour v6 and its amendment (version 11, 28b28f5).
    "heldout-9": "c28f365a3fd4fad8e5d1d5cbb5e6e18829698d71382fb37caa27937a95def62c",
    # Committed (b6f35f4) before behaviour v7 and its amendment (version 12, 623f015).
    "heldout-10": "f19ac50c8c369ebdfcef67c884f3ce14af8c4a6cdd323bd933017f4a1098f4e5",
    # Committed (eda606a) before behaviour v8 and its amendment (version 13, 1a9322a).
    "heldout-11": "c73e13bed19e7907eba270a828e23b0a846f34b8389f15608aa586748017588b",
    # Committed (4b39590) before behaviour v9 and its amendment (version 14, 40c54ac).
    "heldout-12": "131ae8c8fe85cf7c0e243c49fffeb8afbae992c932674f518f962aeb32bf7add",
    # Committed (9554572) before behaviour v10 and its amendment (version 15, 2bb9a7d).
    "heldout-13": "72b865b40e671c20154bed54b5b1e02c35daf0756b529aa4038282c9759f596f",
    # Committed (942e09f) before behaviour v11 and its amendment (version 16, 0c64b13).
    "heldout-14": "c55efa89b3a156b4a2baa3cbd720f2adcb1adb5cf873edd1fb58ae0e05cfc8de",
    # Committed (73cdd15) before behaviour v12 and its amendment (version 17, 14a6230).
    "heldout-15": "cf953fd44f2a7e81f8e0a87307b60e00007dfded05fe9c1082feb9d644bd6ebe",
    # Committed (70b6440) before behaviour v13 and its amendment (version 18, 26b5e06).
    "heldout-16": "68f3d64c5d4c932d72725c02336822a4b657ac49d6a971fca76f39aa3042cab1",
    # Committed (05a7300) before behaviour v14 and its amendment (version 19, fb935d7).
    "heldout-17": "cbe8d0c796259d1f5f6fbab2acda73eddecce2a5b80389500c49eedf798024e2",
    # Committed (f7e44a4) after behaviour v14 and its amendment (version 19, fb935d7): v14's second blind set.
    "heldout-18": "15678b272efc69b081b4cfe9cf122d96a2340c2ae085465cb88d31807e7dabbc",
    # Committed (1511194) after behaviour v14 and its amendment (version 19, fb935d7): v14's third blind set.
    "heldout-19": "697036bffb92e8438917199b71055e76981366da385ba1b3feaa07df7ca096e5",
    # Committed (edb72c2) after behaviour v14 and its amendment (version 19, fb935d7): v14's
    # fourth blind set, its variants only the seven kinds of re-spelling.
    "heldout-20": "710214622fbeabfa8d8f82d204ad81741d9031be584a45420df102c3735ceb92",
    # Committed (8565328) after behaviour v15 and its amendment (version 20, 4770a9f): v15's
    # first blind set, to heldout-20's labelling rule (the issue's seven kinds of re-spelling).
    "heldout-21": "13e7911d45f5d33ec59573f36dfd9f8b5d9a1b23cb8fc780f36217332be519ad",
    # Committed (6c38719) after heldout-21's run, under v15 unchanged: v15's second blind set.
    "heldout-22": "ea7361a6efb4e92984bb97d77f9d2db77f9b7bdbb16ced06d1a432997ab263f6",
    # Committed (79af318) after behaviour v16 and its amendment (version 21, 5204f7d): v16's
    # first blind set, to heldout-20's labelling rule.
    "heldout-23": "37d8ffcd11da05e3e792920c94e73bdf8020b2720daeabcb48520b08dbeaff96",
    # Committed (d72f090) after heldout-23's run, under v16 unchanged: v16's second blind set.
    "heldout-24": "880d74223446226da8c0be0ada2c123f1f66df60f22498db2acd14774abdaa37",
}
RUN = (  # the sets run so far, each now development data
    "heldout",
    "heldout-2",
    "heldout-3",
    "heldout-4",
    "heldout-5",
    "heldout-6",
    "heldout-7",
    "heldout-8",
    "heldout-9",
    "heldout-10",
    "heldout-11",
    "heldout-12",
    "heldout-13",
    "heldout-14",
    "heldout-15",
    "heldout-16",
    "heldout-17",
    "heldout-18",
    "heldout-19",
    "heldout-20",
    "heldout-21",
    "heldout-22",
    "heldout-23",
    "heldout-24",
)
needs_ruby = pytest.mark.skipif(
    shutil.which("ruby") is None, reason="ruby runs the Ruby programs' behavioural sketches"
)


@pytest.mark.parametrize(("name", "sha256"), HELD_OUT_SHA256.items())
def test_the_held_out_sets_are_the_ones_committed_before_their_runs(name: str, sha256: str) -> None:
    folder = SETS / name
    digest = hashlib.sha256((folder / "families.json").read_bytes()).hexdigest()
    assert digest == sha256
    _, programs = load_programs(folder)  # every program still matches its code_sha256
    assert len(programs) >= 60
    assert {p.language for p in programs} == {"python", "ruby"}
    assert sum(p.hard_negative_of is not None for p in programs) >= 10


def test_the_default_settings_are_the_shipped_preregistration() -> None:
    assert load_preregistration(default_preregistration_path()).clusters == DEFAULT_CLUSTERS


@needs_ruby
def test_the_figures_docs_quote() -> None:
    """docs/detector.md ("Clusters") quotes these; change them together."""
    figures = {
        folder.name: evaluate_families(folder, DEFAULT_CLUSTERS, sweep=())
        for folder in (DEV, *(SETS / name for name in RUN))
    }
    pairs = {
        name: (r.correct_pairs, r.predicted_pairs, r.true_pairs) for name, r in figures.items()
    }
    assert pairs == {
        "dev": (57, 57, 68),
        "heldout": (93, 94, 110),
        "heldout-2": (111, 115, 150),
        "heldout-3": (97, 97, 134),
        "heldout-4": (86, 91, 134),
        "heldout-5": (102, 107, 138),  # its one blind run (version 7) gave (73, 82, 138)
        "heldout-6": (84, 91, 128),  # its one blind run (version 8) gave (70, 75, 128)
        "heldout-7": (76, 81, 128),  # its one blind run (version 9) gave (69, 78, 128)
        "heldout-8": (56, 56, 128),  # its one blind run (version 10) gave (49, 66, 128)
        "heldout-9": (58, 64, 128),  # its one blind run (version 11) gave (63, 87, 128)
        "heldout-10": (84, 90, 128),  # its one blind run (version 12) gave (75, 79, 128)
        "heldout-11": (53, 62, 128),  # its one blind run (version 13) gave (48, 56, 128)
        "heldout-12": (83, 94, 132),  # its one blind run (version 14) gave (30, 36, 132)
        "heldout-13": (78, 94, 132),  # its one blind run (version 15) gave (50, 61, 132)
        "heldout-14": (62, 62, 132),  # its one blind run (version 16) gave (57, 73, 132)
        "heldout-15": (68, 76, 132),  # its one blind run (version 17) gave (56, 84, 132)
        "heldout-16": (58, 60, 132),  # its one blind run (version 18) gave (91, 256, 132)
        "heldout-17": (80, 88, 132),  # its one blind run (version 19) gave (93, 113, 132)
        "heldout-18": (60, 65, 132),  # its one blind run (version 19) gave (68, 77, 132)
        "heldout-19": (66, 84, 132),  # its one blind run (version 19) gave (69, 84, 132)
        "heldout-20": (132, 132, 132),  # its one blind run (version 19) gave (109, 125, 132)
        "heldout-21": (129, 146, 132),  # its one blind run (version 20) gave (129, 142, 132)
        "heldout-22": (119, 120, 132),  # its one blind run (version 20) gave (119, 149, 132)
        "heldout-23": (132, 149, 132),  # its one blind run (version 21) gave these same pairs
        "heldout-24": (126, 127, 132),  # its one blind run (version 21) gave these same pairs
    }
    assert (figures["heldout"].exact_correct_pairs, figures["heldout"].exact_predicted_pairs) == (
        0,
        2,
    )
    assert len(figures["heldout-4"].hard_negatives_merged) == 1
    assert len(figures["heldout-6"].hard_negatives_merged) == 2
    assert len(figures["heldout-7"].hard_negatives_merged) == 1
    assert len(figures["heldout-8"].hard_negatives_merged) == 0
    assert len(figures["heldout-9"].hard_negatives_merged) == 2
    assert len(figures["heldout-10"].hard_negatives_merged) == 2
    assert len(figures["heldout-11"].hard_negatives_merged) == 2
    assert len(figures["heldout-12"].hard_negatives_merged) == 4
    assert len(figures["heldout-13"].hard_negatives_merged) == 5
    assert len(figures["heldout-14"].hard_negatives_merged) == 0
    assert len(figures["heldout-15"].hard_negatives_merged) == 3
    assert len(figures["heldout-16"].hard_negatives_merged) == 2
    assert len(figures["heldout-17"].hard_negatives_merged) == 3
    assert len(figures["heldout-18"].hard_negatives_merged) == 2
    assert len(figures["heldout-19"].hard_negatives_merged) == 6
    assert len(figures["heldout-20"].hard_negatives_merged) == 0
    assert len(figures["heldout-21"].hard_negatives_merged) == 2
    assert len(figures["heldout-22"].hard_negatives_merged) == 0
    assert len(figures["heldout-23"].hard_negatives_merged) == 0
    assert len(figures["heldout-24"].hard_negatives_merged) == 0
    # The record the report's known error pools: this scheme still gives its blind runs' pairs.
    record = load_blind_runs(SETS / "blind-runs.toml")
    assert record is not None
    current = record.of_scheme(SCHEME)
    assert [r.set for r in current] == ["heldout-23", "heldout-24"]
    for run in current:
        measured = figures[run.set]
        assert (measured.correct_pairs, measured.predicted_pairs, measured.true_pairs) == (
            run.correct_pairs,
            run.predicted_pairs,
            run.true_pairs,
        )
        assert len(measured.hard_negatives_merged) == run.hard_negatives_merged
    for run in record.runs:
        if run.set in HELD_OUT_SHA256:
            assert run.families_sha256 == HELD_OUT_SHA256[run.set]
    docs = (ROOT / "docs" / "detector.md").read_text()
    assert (
        "| heldout-6 | 95 | 36 | 18 | 0.65 | 50 | 0.94 | 0.60 | 77 / 82 / 128 | 0.97 | 1 |" in docs
    )
    assert (
        "| **heldout-6 (its one blind run)** | 95 | 36 | 18 | 0.65 | 52 | **0.93** | **0.55** "
        "| 70 / 75 / 128 | 0.97 | 1 |" in docs
    )
    assert (
        "| **heldout-7 (its one blind run)** | 95 | 36 | 18 | 0.65 | 53 | **0.88** | **0.54** "
        "| 69 / 78 / 128 | 0.96 | 3 |" in docs
    )
    assert (
        "| **heldout-8 (its one blind run)** | 95 | 36 | 18 | 0.7 | 61 | **0.74** | **0.38** "
        "| 49 / 66 / 128 | 0.96 | 2 |" in docs
    )
    assert (
        "| heldout-7 | 95 | 36 | 18 | 0.7 | 51 | 0.89 | 0.62 | 79 / 89 / 128 | 0.97 | 3 |" in docs
    )
    assert (
        "| **heldout-9 (its one blind run)** | 95 | 36 | 18 | 0.8 | 52 | **0.72** | **0.49** "
        "| 63 / 87 / 128 | 0.91 | 4 |" in docs
    )
    assert (
        "| heldout-8 | 95 | 36 | 18 | 0.8 | 58 | 0.91 | 0.45 | 58 / 64 / 128 | 0.98 | 2 |" in docs
    )
    assert (
        "| **heldout-10 (its one blind run)** | 95 | 36 | 18 | 0.85 | 53 | **0.95** | **0.59** "
        "| 75 / 79 / 128 | 0.98 | 1 |" in docs
    )
    assert (
        "| heldout-9 | 95 | 36 | 18 | 0.85 | 50 | 0.85 | 0.55 | 71 / 84 / 128 | 0.95 | 3 |" in docs
    )
    assert (
        "| **heldout-11 (its one blind run)** | 95 | 36 | 18 | 0.9 | 62 | **0.86** | **0.38** "
        "| 48 / 56 / 128 | 0.97 | 2 |" in docs
    )
    assert (
        "| heldout-10 | 95 | 36 | 18 | 0.9 | 46 | 0.97 | 0.69 | 88 / 91 / 128 | 0.98 | 1 |" in docs
    )
    assert (
        "| **heldout-12 (its one blind run)** | 96 | 36 | 18 | 0.9 | 73 | **0.83** | **0.23** "
        "| 30 / 36 / 132 | 0.97 | 3 |" in docs
    )
    assert (
        "| heldout-11 | 95 | 36 | 18 | 0.9 | 56 | 0.85 | 0.48 | 61 / 72 / 128 | 0.96 | 3 |" in docs
    )
    assert (
        "| **heldout-13 (its one blind run)** | 96 | 36 | 18 | 0.9 | 61 | **0.82** | **0.38** "
        "| 50 / 61 / 132 | 0.94 | 5 |" in docs
    )
    assert (
        "| heldout-12 | 96 | 36 | 18 | 0.9 | 49 | 0.88 | 0.57 | 75 / 85 / 132 | 0.96 | 4 |" in docs
    )
    assert (
        "| **heldout-14 (its one blind run)** | 96 | 36 | 18 | 0.9 | 60 | **0.78** | **0.43** "
        "| 57 / 73 / 132 | 0.95 | 3 |" in docs
    )
    assert (
        "| heldout-13 | 96 | 36 | 18 | 0.9 | 51 | 0.85 | 0.54 | 71 / 84 / 132 | 0.95 | 5 |" in docs
    )
    assert (
        "| **heldout-15 (its one blind run)** | 96 | 36 | 18 | 0.9 | 57 | **0.67** | **0.42** "
        "| 56 / 84 / 132 | 0.92 | 4 |" in docs
    )
    assert (
        "| heldout-14 | 96 | 36 | 18 | 0.9 | 60 | 0.78 | 0.43 | 57 / 73 / 132 | 0.95 | 3 |" in docs
    )
    assert (
        "| **heldout-16 (its one blind run)** | 96 | 36 | 18 | 0.9 | 35 | **0.36** | **0.69** "
        "| 91 / 256 / 132 | 0.74 | 9 |" in docs
    )
    assert (
        "| **heldout-17 (its one blind run)** | 96 | 36 | 18 | 0.9 | 44 | **0.82** | **0.70** "
        "| 93 / 113 / 132 | 0.95 | 5 |" in docs
    )
    assert (
        "| heldout-16 | 96 | 36 | 18 | 0.9 | 60 | 0.97 | 0.44 | 58 / 60 / 132 | 0.98 | 2 |" in docs
    )
    assert (
        "| **heldout-18 (its one blind run)** | 96 | 36 | 18 | 0.9 | 55 | **0.88** | **0.52** "
        "| 68 / 77 / 132 | 0.97 | 3 |" in docs
    )
    assert (
        "| **heldout-19 (its one blind run)** | 96 | 36 | 18 | 0.9 | 48 | **0.82** | **0.52** "
        "| 69 / 84 / 132 | 0.94 | 6 |" in docs
    )
    assert (
        "| **heldout-20 (its one blind run)** | 96 | 36 | 18 | 0.9 | 42 | **0.87** | **0.83** "
        "| 109 / 125 / 132 | 0.96 | 0 |" in docs
    )
    assert (
        "| **heldout-21 (its one blind run)** | 96 | 36 | 18 | 0.9 | 34 | **0.91** | **0.98** "
        "| 129 / 142 / 132 | 0.97 | 2 |" in docs
    )
    assert (
        "| **heldout-22 (its one blind run)** | 96 | 36 | 18 | 0.9 | 37 | **0.80** | **0.90** "
        "| 119 / 149 / 132 | 0.94 | 1 |" in docs
    )
    assert (
        "| **heldout-23 (its one blind run)** | 96 | 36 | 18 | 0.9 | 34 | **0.89** | **1.00** "
        "| 132 / 149 / 132 | 0.95 | 0 |" in docs
    )
    assert (
        "| **heldout-24 (its one blind run)** | 96 | 36 | 18 | 0.9 | 36 | **0.99** | **0.95** "
        "| 126 / 127 / 132 | 0.99 | 0 |" in docs
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
