"""The clusterer's blind runs: the record, its checks, and the known error the report pools from it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from recurscope.instrumentation.analysis._behaviour import SCHEME
from recurscope.pipeline.evidence.blind_runs import BlindRunsError, load_blind_runs
from recurscope.pipeline.verdict.markdown import known_error_text
from recurscope.pipeline.verdict.report import known_error
from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "data" / "clone-families" / "blind-runs.toml"

GOOD_RUN = """
[[runs]]
set = "heldout-x"
families_sha256 = "ab"
scheme = "s1"
preregistration_version = 3
similarity = 0.9
correct_pairs = 8
predicted_pairs = 10
true_pairs = 20
hard_negatives_merged = 1
"""


def test_every_run_names_the_committed_set_and_its_hash() -> None:
    record = load_blind_runs(RECORD)
    assert record is not None and len(record.runs) >= 15
    assert (record.target_precision, record.target_recall) == (0.95, 0.9)
    for run in record.runs:
        families = ROOT / "data" / "clone-families" / run.set / "families.json"
        assert hashlib.sha256(families.read_bytes()).hexdigest() == run.families_sha256, run.set
    sets = [r.set for r in record.runs]
    assert len(sets) == len(set(sets))  # each set is run blind once


def test_the_registered_scheme_has_its_blind_runs_pooled() -> None:
    """The pre-registration's scheme is the sketches' scheme, and the record has its runs."""
    prereg = load_preregistration(default_preregistration_path())
    assert prereg.sketch_scheme == SCHEME
    known = known_error(SCHEME, load_blind_runs(RECORD))
    assert known is not None
    assert known.sets == ("heldout-23", "heldout-24")
    assert (known.correct_pairs, known.predicted_pairs, known.true_pairs) == (258, 276, 264)
    assert known.precision == pytest.approx(258 / 276)
    assert known.recall == pytest.approx(258 / 264)
    assert (known.precision_low, known.precision_high) == pytest.approx((132 / 149, 126 / 127))
    assert (known.recall_low, known.recall_high) == pytest.approx((126 / 132, 1.0))
    assert known.hard_negatives_merged == 0
    assert not known.meets_targets  # the recall target is met; the precision target is not
    v15 = known_error("behaviour-minhash-affine32-64-v15", load_blind_runs(RECORD))
    assert v15 is not None and v15.sets == ("heldout-21", "heldout-22")
    assert (v15.correct_pairs, v15.predicted_pairs, v15.true_pairs) == (248, 291, 264)
    assert (v15.precision_low, v15.precision_high) == pytest.approx((119 / 149, 129 / 142))
    assert (v15.recall_low, v15.recall_high) == pytest.approx((119 / 132, 129 / 132))
    assert v15.hard_negatives_merged == 3


def test_the_known_error_sentence_says_what_was_measured_and_what_it_means() -> None:
    v15 = "behaviour-minhash-affine32-64-v15"
    known = known_error(v15, load_blind_runs(RECORD))
    text = known_error_text(known, v15)
    assert "2 blind runs: heldout-21, heldout-22;" in text
    assert "pairwise precision 85.2% (79.9%–90.8% by set)" in text
    assert "recall 93.9% (90.2%–97.7% by set;" in text
    assert "**does not meet** the targets (0.95 / 0.9)" in text
    assert "can only raise the clustered share" in text
    text = known_error_text(known_error(SCHEME, load_blind_runs(RECORD)), SCHEME)
    assert "2 blind runs: heldout-23, heldout-24;" in text
    assert (
        "pairwise precision 93.5% (88.6%–99.2% by set), recall 97.7% (95.5%–100.0% by set;" in text
    )
    v14 = "behaviour-minhash-affine32-64-v14"  # the scheme before: four runs, pooled
    pooled = known_error(v14, load_blind_runs(RECORD))
    assert pooled is not None
    assert (pooled.correct_pairs, pooled.predicted_pairs, pooled.true_pairs) == (339, 399, 528)
    assert (pooled.precision_low, pooled.precision_high) == pytest.approx((69 / 84, 68 / 77))
    assert (pooled.recall_low, pooled.recall_high) == pytest.approx((68 / 132, 109 / 132))
    assert pooled.hard_negatives_merged == 14
    text = known_error_text(pooled, v14)
    assert "4 blind runs: heldout-17, heldout-18, heldout-19, heldout-20" in text
    assert "pairwise precision 85.0% (82.1%–88.3% by set)" in text
    assert "recall 64.2% (51.5%–82.6% by set" in text
    assert "**not measured**" in known_error_text(None, "scheme-without-runs")
    assert "none (exact fingerprints" in known_error_text(None, "", clustered=False)


def test_a_scheme_without_runs_or_no_record_has_no_known_error(tmp_path: Path) -> None:
    assert known_error("no-such-scheme", load_blind_runs(RECORD)) is None
    assert known_error(SCHEME, None) is None
    assert known_error("", load_blind_runs(RECORD)) is None
    assert load_blind_runs(tmp_path / "absent.toml") is None


def test_one_run_pools_to_itself_and_can_meet_the_targets(tmp_path: Path) -> None:
    path = tmp_path / "runs.toml"
    path.write_text("target_precision = 0.75\ntarget_recall = 0.4\n" + GOOD_RUN, encoding="utf-8")
    known = known_error("s1", load_blind_runs(path))
    assert known is not None and known.sets == ("heldout-x",)
    assert (known.precision, known.recall) == (0.8, 0.4) and known.meets_targets
    text = known_error_text(known, "s1")
    assert "1 blind run: heldout-x;" in text and "meets the targets" in text
    assert "recall 40.0% (one set, so no spread by set;" in text and "by set)" not in text
    path.write_text(
        GOOD_RUN.replace("predicted_pairs = 10", "predicted_pairs = 0").replace(
            "correct_pairs = 8", "correct_pairs = 0"
        ),
        encoding="utf-8",
    )
    known = known_error("s1", load_blind_runs(path))
    assert known is not None and known.precision is None and known.recall == 0.0
    assert not known.meets_targets


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("runs = [", "cannot read the clusterer's blind runs"),
        ("runs = 3", "'runs' must be an array of tables"),
        ("target_precision = 2\n" + GOOD_RUN, "target_precision must be a number from 0 to 1"),
        ("target_recall = true\n" + GOOD_RUN, "target_recall must be a number from 0 to 1"),
        (GOOD_RUN.replace('set = "heldout-x"', 'set = ""'), "run 1: 'set' must be non-empty text"),
        (GOOD_RUN.replace('scheme = "s1"\n', ""), "run 1: 'scheme' must be non-empty text"),
        (
            GOOD_RUN.replace("true_pairs = 20", "true_pairs = -1"),
            "run 1 (heldout-x): 'true_pairs' must be a whole number >= 0",
        ),
        (
            GOOD_RUN.replace("correct_pairs = 8", "correct_pairs = 8.0"),
            "'correct_pairs' must be a whole number",
        ),
        (
            GOOD_RUN.replace("hard_negatives_merged = 1", "hard_negatives_merged = true"),
            "'hard_negatives_merged' must be a whole number",
        ),
        (
            GOOD_RUN.replace("correct_pairs = 8", "correct_pairs = 11"),
            "correct_pairs cannot exceed predicted_pairs or true_pairs",
        ),
        (
            GOOD_RUN.replace("similarity = 0.9", 'similarity = "0.9"'),
            "'similarity' must be a number",
        ),
        (
            GOOD_RUN.replace("similarity = 0.9", "similarity = 1.5"),
            "similarity must be a number from 0 to 1",
        ),
        (GOOD_RUN + "\n[[runs]]\n", "run 2: 'set' must be non-empty text"),
        ("\x00", "cannot read"),
    ],
)
def test_a_malformed_record_is_refused_with_the_run_and_field(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "blind-runs.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BlindRunsError) as caught:
        load_blind_runs(path)
    assert says in str(caught.value) and str(path) in str(caught.value)
    assert "restore" in str(caught.value)  # and says what to do


def test_undecodable_bytes_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "blind-runs.toml"
    path.write_bytes(b"\xff\xfe runs")
    with pytest.raises(BlindRunsError, match="restore the record"):
        load_blind_runs(path)
