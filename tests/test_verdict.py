"""Pre-registration loading, integrity checks and the per-primitive decision rule."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from recurscope.pipeline.verdict import stats as stats
from recurscope.pipeline.verdict.rule import (
    Preregistration,
    PreregistrationError,
    WindowCheck,
    check_integrity,
    check_window,
    decide,
    load_preregistration,
)

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "preregistration.toml"
MET = WindowCheck(200, 5, 30, 0, None, None, ())


@pytest.fixture(scope="module")
def prereg() -> Preregistration:
    return load_preregistration(SHIPPED)


def _interval(
    estimate: float | None,
    lower: float | None,
    upper: float | None,
    confidence: float,
    sessions: int = 200,
) -> stats.Interval:
    return stats.Interval(estimate, lower, upper, confidence, 0.0, 0.0, sessions, sessions, 2000)


def _intervals(
    prereg: Preregistration, bounds: dict[str, tuple[float, float, float]]
) -> dict[str, stats.Interval]:
    return {name: _interval(*bounds[name], prereg.adjusted_confidence) for name in bounds}


class TestPreregistration:
    def test_shipped_file_names_four_primary_criteria_with_rationales(
        self, prereg: Preregistration
    ) -> None:
        """Two primary criteria per primitive, each with a threshold and its reason."""
        names = {c.name: c.primitive for c in prereg.criteria}
        assert names == {
            "contextview_shaped_share": "contextview",
            "boilerplate_share": "contextview",
            "same_role_share": "recurse",
            "goal_overflow_share": "recurse",
        }
        assert all(c.rationale and 0 < c.threshold < 1 for c in prereg.criteria)

    def test_bonferroni_spreads_alpha_over_every_primary_criterion(
        self, prereg: Preregistration
    ) -> None:
        """alpha 0.05 over m = 4 primary criteria of both primitives: 98.75% intervals."""
        assert prereg.comparisons == 4
        assert prereg.adjusted_confidence == pytest.approx(0.9875)

    def test_window_gates_follow_the_runtimes_own(self, prereg: Preregistration) -> None:
        """>= 20 runs, >= 5 seeds, >= 3 days, as the runtime's gates used."""
        assert (prereg.window.min_runs, prereg.window.min_seeds, prereg.window.min_days) == (
            20,
            5,
            3,
        )
        assert prereg.resamples == 2000 and prereg.seed == 20260216

    def test_hash_is_the_sha256_of_the_file_bytes(self, prereg: Preregistration) -> None:
        """The embedded hash identifies exactly this file."""
        assert prereg.sha256 == hashlib.sha256(SHIPPED.read_bytes()).hexdigest()

    def test_an_edit_changes_the_hash(self, tmp_path: Path) -> None:
        """Any change to the thresholds shows in the hash."""
        copy = tmp_path / "p.toml"
        text = SHIPPED.read_text()
        copy.write_text(text)
        first = load_preregistration(copy).sha256
        copy.write_text(text.replace("threshold = 0.15", "threshold = 0.10"))
        assert load_preregistration(copy).sha256 != first

    @pytest.mark.parametrize(
        ("edit", "message"),
        [
            (lambda t: t.replace("alpha = 0.05", "alpha = 5"), "alpha"),
            (lambda t: t.replace('primitive = "recurse"', 'primitive = "nope"'), "primitive"),
            (
                lambda t: t.replace(
                    'rationale = """\nrecurse(query:', 'reason = """\nrecurse(query:'
                ),
                "rationale",
            ),
            (lambda t: t + "\n[[[", "TOML"),
            (
                lambda t: t.replace("footprint_similarity = 0.95", "footprint_similarity = 0.9"),
                "footprint_similarity = 0.9, but the sketch scheme fixes it at 0.95",
            ),
            (
                lambda t: t.replace("footprint_floor = 0.1", "footprint_floor = 0"),
                "footprint_floor",
            ),
            (
                lambda t: t.replace("footprint_min_edits = 5", "footprint_min_edits = 3"),
                "footprint_min_edits = 3, but the sketch scheme fixes it at 5",
            ),
            (
                lambda t: t.replace("footprint_min_edits = 5", 'footprint_min_edits = "5"'),
                "footprint_min_edits must be a number",
            ),
        ],
    )
    def test_malformed_files_name_what_to_fix(
        self, tmp_path: Path, edit: object, message: str
    ) -> None:
        """A broken pre-registration fails with a message naming the field."""
        copy = tmp_path / "p.toml"
        copy.write_text(edit(SHIPPED.read_text()))  # type: ignore[operator]
        with pytest.raises(PreregistrationError, match=message):
            load_preregistration(copy)

    def test_missing_file_says_where_the_default_is(self, tmp_path: Path) -> None:
        """No file: the error points at --prereg and the shipped default."""
        with pytest.raises(PreregistrationError, match="--prereg"):
            load_preregistration(tmp_path / "absent.toml")


class TestIntegrity:
    def test_registered_after_the_first_span_is_flagged(self, prereg: Preregistration) -> None:
        """Thresholds registered after data began may have been fitted to it."""
        check = check_integrity(prereg, datetime(2026, 3, 1))
        assert check.registered_after_start and check.flagged

    def test_registered_and_unmodified_before_the_window_is_clean(self, tmp_path: Path) -> None:
        """A file registered and last touched before the first span is not flagged."""
        copy = tmp_path / "p.toml"
        copy.write_text(SHIPPED.read_text())
        registered = load_preregistration(SHIPPED).registered_at
        assert registered is not None
        old = (registered - timedelta(days=1)).timestamp()
        os.utime(copy, (old, old))
        check = check_integrity(load_preregistration(copy), registered + timedelta(days=1))
        assert not check.flagged

    def test_a_file_modified_after_the_first_span_is_flagged(self, tmp_path: Path) -> None:
        """Even with an early registered_at, a later edit (mtime) is flagged."""
        copy = tmp_path / "p.toml"
        copy.write_text(SHIPPED.read_text())
        registered = load_preregistration(SHIPPED).registered_at
        assert registered is not None
        later = (registered + timedelta(days=5)).timestamp()
        os.utime(copy, (later, later))
        check = check_integrity(load_preregistration(copy), registered + timedelta(days=1))
        assert check.modified_after_start and not check.registered_after_start


class TestWindow:
    def test_unmet_gates_are_listed(self, prereg: Preregistration) -> None:
        """Each missing gate is named with how much is missing."""
        check = check_window(prereg, {"sessions": 40, "days": 2, "runs": 25, "seeds": 0})
        assert not check.met
        assert check.missing == ("60 more sessions (40 of 100)", "1 more distinct days (2 of 3)")

    def test_the_seed_gate_applies_only_when_seeds_are_recorded(
        self, prereg: Preregistration
    ) -> None:
        """Real traffic has no seeds; simulated runs with too few seeds fail the gate."""
        base = {"sessions": 200, "days": 5, "runs": 30}
        assert check_window(prereg, {**base, "seeds": 0}).met
        assert not check_window(prereg, {**base, "seeds": 3}).met


class TestDecision:
    def test_justified_when_every_lower_bound_clears(self, prereg: Preregistration) -> None:
        """All adjusted lower bounds above threshold: the primitive is justified."""
        intervals = _intervals(
            prereg,
            {
                "contextview_shaped_share": (0.30, 0.20, 0.40),
                "boilerplate_share": (0.50, 0.40, 0.60),
                "same_role_share": (0.30, 0.22, 0.38),
                "goal_overflow_share": (0.30, 0.12, 0.48),
            },
        )
        verdicts = {v.primitive: v for v in decide(prereg, intervals, MET)}
        assert verdicts["contextview"].outcome == "justified"
        assert verdicts["recurse"].outcome == "justified"

    def test_not_justified_when_every_upper_bound_falls_below(
        self, prereg: Preregistration
    ) -> None:
        """All adjusted upper bounds below threshold: not justified."""
        intervals = _intervals(
            prereg,
            {
                "contextview_shaped_share": (0.05, 0.03, 0.08),
                "boilerplate_share": (0.10, 0.05, 0.20),
                "same_role_share": (0.30, 0.25, 0.35),
                "goal_overflow_share": (0.30, 0.25, 0.35),
            },
        )
        verdicts = {v.primitive: v for v in decide(prereg, intervals, MET)}
        assert verdicts["contextview"].outcome == "not_justified"

    def test_a_straddling_criterion_is_insufficient_with_a_projection(
        self, prereg: Preregistration
    ) -> None:
        """One interval includes its threshold: insufficient, with further sessions projected."""
        intervals = _intervals(
            prereg,
            {
                "contextview_shaped_share": (0.30, 0.20, 0.40),
                "boilerplate_share": (0.30, 0.20, 0.40),  # threshold 0.25 inside
                "same_role_share": (0.30, 0.25, 0.35),
                "goal_overflow_share": (0.30, 0.25, 0.35),
            },
        )
        verdict = decide(prereg, intervals, MET)[0]
        assert verdict.outcome == "insufficient_evidence"
        assert verdict.further_sessions == stats.further_sessions(
            intervals["boilerplate_share"], 0.25
        )
        assert verdict.further_sessions is not None and verdict.further_sessions > 0
        assert "boilerplate_share" in verdict.reason

    def test_mixed_evidence_is_insufficient_without_a_projection(
        self, prereg: Preregistration
    ) -> None:
        """One criterion clearly above, the other clearly below: more data cannot decide it."""
        intervals = _intervals(
            prereg,
            {
                "contextview_shaped_share": (0.30, 0.20, 0.40),
                "boilerplate_share": (0.10, 0.05, 0.15),
                "same_role_share": (0.30, 0.25, 0.35),
                "goal_overflow_share": (0.30, 0.25, 0.35),
            },
        )
        verdict = decide(prereg, intervals, MET)[0]
        assert verdict.outcome == "insufficient_evidence"
        assert verdict.further_sessions is None and "Mixed" in verdict.reason

    def test_an_unmet_window_overrides_clear_estimates(self, prereg: Preregistration) -> None:
        """Outside the evidence window the verdict is insufficient, naming what is missing."""
        intervals = _intervals(
            prereg,
            {
                "contextview_shaped_share": (0.30, 0.20, 0.40),
                "boilerplate_share": (0.50, 0.40, 0.60),
                "same_role_share": (0.30, 0.25, 0.35),
                "goal_overflow_share": (0.30, 0.25, 0.35),
            },
        )
        window = WindowCheck(40, 1, 2, 0, None, None, ("60 more sessions (40 of 100)",))
        for verdict in decide(prereg, intervals, window):
            assert verdict.outcome == "insufficient_evidence"
            assert "60 more sessions" in verdict.reason

    def test_no_data_is_insufficient(self, prereg: Preregistration) -> None:
        """A criterion with a zero denominator leaves its primitive undecided."""
        intervals = _intervals(
            prereg,
            {
                "contextview_shaped_share": (0.30, 0.20, 0.40),
                "boilerplate_share": (0.50, 0.40, 0.60),
                "same_role_share": (0.30, 0.25, 0.35),
            },
        )
        intervals["goal_overflow_share"] = _interval(None, None, None, prereg.adjusted_confidence)
        verdict = decide(prereg, intervals, MET)[1]
        assert verdict.outcome == "insufficient_evidence" and "No data" in verdict.reason

    def test_bonferroni_turns_an_unadjusted_clear_into_insufficient(
        self, prereg: Preregistration
    ) -> None:
        """A threshold between the 95% and the adjusted lower bound is not cleared."""
        rng = np.random.default_rng(8)
        trials = rng.integers(5, 30, size=150)
        successes = rng.binomial(trials, rng.beta(4, 8, size=150))
        samples = stats.bootstrap_ratios(successes, trials, resamples=2000, seed=prereg.seed)
        plain = stats.interval_from_samples(successes, trials, samples[:, 0], 0.95)
        adjusted = stats.interval_from_samples(
            successes, trials, samples[:, 0], prereg.adjusted_confidence
        )
        assert plain.lower is not None and adjusted.lower is not None
        assert adjusted.lower < plain.lower
        threshold = (plain.lower + adjusted.lower) / 2
        spec = next(c for c in prereg.criteria if c.name == "same_role_share")
        shifted = {
            "same_role_share": adjusted,
            "goal_overflow_share": _interval(0.5, 0.45, 0.55, prereg.adjusted_confidence),
            "contextview_shaped_share": _interval(0.5, 0.45, 0.55, prereg.adjusted_confidence),
            "boilerplate_share": _interval(0.5, 0.45, 0.55, prereg.adjusted_confidence),
        }
        moved = Preregistration(
            **{
                **{f: getattr(prereg, f) for f in prereg.__dataclass_fields__},
                "criteria": tuple(
                    type(spec)(
                        c.name,
                        c.primitive,
                        threshold if c is spec else c.threshold,
                        c.definition,
                        c.rationale,
                    )
                    for c in prereg.criteria
                ),
            }
        )
        assert plain.lower > threshold  # an unadjusted 95% interval would have cleared it
        assert decide(moved, shifted, MET)[1].outcome == "insufficient_evidence"

    def test_unadjusted_intervals_are_refused(self, prereg: Preregistration) -> None:
        """Primary intervals must come at the Bonferroni-adjusted confidence."""
        intervals = {
            name: _interval(0.3, 0.2, 0.4, 0.95) for name in (c.name for c in prereg.criteria)
        }
        with pytest.raises(ValueError, match=r"interval at 0\.95"):
            decide(prereg, intervals, MET)

    def test_an_unknown_preregistered_criterion_is_an_error(self, prereg: Preregistration) -> None:
        """The file may not name a criterion the evidence does not compute."""
        with pytest.raises(PreregistrationError, match="does not compute"):
            decide(prereg, {}, MET)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_committed_preregistration_dates_from_its_commit_not_its_checkout(
    tmp_path: Path,
) -> None:
    """A fresh clone sets mtimes to now; an unchanged tracked file counts from its
    commit. Editing it (or keeping it out of git) falls back to the mtime."""
    from recurscope.pipeline.verdict.rule import last_changed

    repo = tmp_path / "repo"
    repo.mkdir()
    prereg = repo / "preregistration.toml"
    prereg.write_text("[registration]\n")
    when = "2026-01-02T03:04:05+00:00"
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    untracked = last_changed(prereg)
    for args in (["init", "-q"], ["add", "preregistration.toml"], ["commit", "-qm", "pre"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    os.utime(prereg)  # what a checkout does: mtime = now
    assert last_changed(prereg) == datetime(2026, 1, 2, 3, 4, 5)
    prereg.write_text("[registration]\n# edited\n")
    assert last_changed(prereg) > datetime(2026, 1, 2, 3, 4, 5)
    assert untracked > datetime(2026, 1, 2, 3, 4, 5)


class TestRegisteredHash:
    """The pre-registration is dated from registered_at while its content has the registered hash."""

    def test_the_shipped_file_is_registered_as_it_is(self) -> None:
        """Editing data/preregistration.toml without registering it again fails here."""
        from recurscope.pipeline.verdict.rule import default_preregistration_path, registered_sha256

        path = default_preregistration_path()
        assert registered_sha256(path) == hashlib.sha256(path.read_bytes()).hexdigest(), (
            "data/preregistration.toml changed: amend it properly (new registered_at, "
            "rationale) and run python tools/register_preregistration.py"
        )

    def test_a_fresh_mtime_does_not_flag_a_registered_file(self, tmp_path: Path) -> None:
        """An install or clone sets mtime to now; the registered hash keeps registered_at."""
        from recurscope.pipeline.verdict.rule import (
            check_integrity,
            default_preregistration_path,
            load_preregistration,
        )

        shipped = default_preregistration_path()
        copy = tmp_path / "preregistration.toml"
        copy.write_bytes(shipped.read_bytes())
        sidecar = shipped.with_name(shipped.name + ".sha256")
        (tmp_path / sidecar.name).write_bytes(sidecar.read_bytes())
        prereg = load_preregistration(copy)
        assert prereg.registered_at is not None
        assert prereg.modified_at == prereg.registered_at
        after = prereg.registered_at + timedelta(days=1)
        assert not check_integrity(prereg, after).flagged

    def test_an_edited_file_falls_back_to_its_modification_time(self, tmp_path: Path) -> None:
        """Content that no longer has the registered hash is dated by the file itself."""
        from recurscope.pipeline.verdict.rule import (
            check_integrity,
            default_preregistration_path,
            load_preregistration,
        )

        shipped = default_preregistration_path()
        copy = tmp_path / "preregistration.toml"
        copy.write_text(shipped.read_text().replace("threshold = 0.15", "threshold = 0.10"))
        sidecar = shipped.with_name(shipped.name + ".sha256")
        (tmp_path / sidecar.name).write_bytes(sidecar.read_bytes())
        registered = load_preregistration(shipped).registered_at
        assert registered is not None
        edited = (registered + timedelta(hours=1)).timestamp()
        os.utime(copy, (edited, edited))  # edited after registration
        prereg = load_preregistration(copy)
        assert prereg.registered_at is not None and prereg.modified_at > prereg.registered_at
        assert check_integrity(prereg, prereg.registered_at + timedelta(minutes=1)).flagged
