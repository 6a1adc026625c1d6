"""Behavioural sketch v3: what a re-spelling adds around the same answer does not count.

The rules of pre-registration version 8 (``_probes.atoms`` with a record's own
values, ``_behaviour._undecorated``) and the probe mendings it came with.
"""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.instrumentation.analysis import _behaviour
from recurscope.instrumentation.analysis._probes import (
    FOCUS,
    atoms,
    literals,
    own_values,
    probes,
    record_keys,
)
from recurscope.instrumentation.analysis._sketch import similarity

needs_ruby = pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby is not installed")
PROBE = probes()[0]
OWN = own_values(PROBE)


def record(i: int) -> dict[str, object]:
    return PROBE["history"][i]  # type: ignore[no-any-return]


def as_dict(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """The runner's encoding of a dict answer."""
    return {"d": [list(pair) for pair in pairs]}


class TestARecordsOwnFields:
    def test_fields_shown_beside_a_record_are_the_record(self) -> None:
        r = record(3)
        bare = atoms(r["call_id"], PROBE, OWN)
        shown = atoms(
            as_dict(
                [
                    ("id", r["call_id"]),
                    ("method", r["method_name"]),
                    ("speaker", r["speaker"]),
                    ("status", r["outcome_summary"]["status"]),  # type: ignore[index]
                ]
            ),
            PROBE,
            OWN,
        )
        assert bare == shown == {"rec:0.03"}

    def test_a_line_of_text_is_one_part(self) -> None:
        one, two = record(3), record(4)
        lines = f"{one['call_id']} {one['method_name']}\n{two['call_id']} {two['method_name']}"
        assert atoms(lines, PROBE, OWN) == {"rec:0.03", "rec:0.04"}

    def test_another_records_value_and_a_part_with_two_records_stay(self) -> None:
        one, two = record(3), record(4)
        other = next(
            m
            for m in ("alpha_op", "beta_op", "gamma_op", "delta_op")
            if f"method:{m}" not in OWN["rec:0.03"]
        )
        assert f"method:{other}" in atoms(
            as_dict([("id", one["call_id"]), ("m", other)]), PROBE, OWN
        )
        pair = atoms([one["call_id"], two["call_id"], one["method_name"]], PROBE, OWN)
        assert f"method:{one['method_name']}" in pair

    def test_without_own_values_every_token_counts_as_before(self) -> None:
        r = record(3)
        assert f"method:{r['method_name']}" in atoms([r["call_id"], r["method_name"]], PROBE)

    def test_goals_and_needs_are_values_not_numbers(self) -> None:
        found = atoms(["goal-0-1", "goal-0-1", "need-0-3"], PROBE)
        assert found == {"goal:0-1", "goal:0-1#2", "need:0-3"}


class TestUndecorated:
    def test_the_input_echoed_back_is_dropped_only_when_the_program_takes_one(self) -> None:
        answer = {f"method:{FOCUS}", "num:3"}
        assert _behaviour._undecorated(answer, 24, echoes=True) == {"num:3"}
        assert _behaviour._undecorated(answer, 24, echoes=False) == answer

    def test_a_count_of_the_records_shown_is_dropped(self) -> None:
        shown = {"rec:0.01", "rec:0.02", "num:2"}
        assert _behaviour._undecorated(shown, 24, echoes=False) == {"rec:0.01", "rec:0.02"}
        assert _behaviour._undecorated({"rec:0.01", "num:5"}, 24, echoes=False) == {
            "rec:0.01",
            "num:5",
        }

    def test_outcome_words_are_dropped_and_an_answer_left_with_nothing_is_empty(self) -> None:
        assert _behaviour._undecorated({"status:ok", "num:0.5"}, 24, echoes=False) == {"num:0.5"}
        assert _behaviour._undecorated({"status:ok"}, 24, echoes=False) == {"empty"}

    def test_the_history_size_is_dropped_beside_something_else_only(self) -> None:
        assert _behaviour._undecorated({"num:14", "num:24", "num:0.58"}, 24, echoes=False) == {
            "num:14",
            "num:0.58",
        }
        assert _behaviour._undecorated({"num:24"}, 24, echoes=False) == {"num:24"}

    def test_only_the_highest_copy_of_a_repeated_value_goes(self) -> None:
        answer = {"num:24", "num:24#2", "num:1"}
        assert _behaviour._undecorated(answer, 24, echoes=False) == {"num:24", "num:1"}

    @settings(max_examples=200, deadline=None)
    @given(
        answer=st.sets(
            st.sampled_from(
                [
                    "rec:0.01",
                    "rec:0.02",
                    "num:1",
                    "num:2",
                    "num:24",
                    "num:24#2",
                    "status:ok",
                    f"method:{FOCUS}",
                    f"method:{FOCUS}#2",
                    "method:beta_op",
                    "empty",
                ]
            ),
            min_size=1,
        ),
        echoes=st.booleans(),
    )
    def test_it_only_ever_removes_and_never_returns_nothing(
        self, answer: set[str], echoes: bool
    ) -> None:
        kept = _behaviour._undecorated(answer, 24, echoes)
        assert kept and (kept <= answer or kept == {"empty"})
        assert {a for a in answer if a.startswith("rec:")} <= kept  # records are never dropped


class TestProbesFeedMorePrograms:
    def test_the_current_call_has_siblings_and_the_tree_stays_acyclic(self) -> None:
        for probe in probes():
            history = probe["history"]
            by_id = {r["call_id"]: r for r in history}
            current = by_id[probe["context"]["call_id"]]
            siblings = [
                r
                for r in history
                if r is not current and r["parent_call_id"] == current["parent_call_id"]
            ]
            assert len(siblings) >= 2
            for r in history:  # every parent is earlier: walking up always ends
                parent = r["parent_call_id"]
                assert parent is None or history.index(by_id[parent]) < history.index(r)

    def test_a_key_tested_with_in_reaches_the_probes(self) -> None:
        code = 'result = [r["call_id"] for r in conversation_history if "timeout" in r["kwargs"]]'
        assert literals(code, "python") == [("timeout", "key")]
        bound = 'KEY = "timeout"\nresult = [r for r in conversation_history if KEY in r["kwargs"]]'
        assert literals(bound, "python") == [("timeout", "key")]

    def test_every_key_of_a_dig_path_reaches_the_probes(self) -> None:
        assert record_keys("calls.select { |c| !c.dig(:kwargs, :timeout).nil? }") == ["timeout"]

    def test_a_class_literal_renames_a_class(self) -> None:
        code = 'result = [r for r in conversation_history if r["outcome_summary"]["value_class"] == "Float"]'
        assert literals(code, "python") == [("Float", "class")]
        classes = {
            r["outcome_summary"]["value_class"]
            for r in probes(literals(code, "python"))[0]["history"]
        }
        assert "Float" in classes

    def test_a_program_the_v2_probes_could_not_feed_now_answers(self) -> None:
        code = (
            "me = context['call_id']\n"
            "mine = next(r for r in conversation_history if r['call_id'] == me)\n"
            "result = [r['call_id'] for r in conversation_history\n"
            "          if r['call_id'] != me and r['parent_call_id'] == mine['parent_call_id']]\n"
        )
        assert _behaviour.behaviour_sketch(code, "python") is not None


class TestEndToEnd:
    BARE = (
        "h = context['conversation_history']\n"
        "result = [r['call_id'] for r in h if not r['outcome_summary']['ok']]\n"
    )
    DECORATED = (
        "failed = [r for r in conversation_history if r['outcome_summary']['status'] == 'error']\n"
        "lines = [f\"{r['call_id']} {r['method_name']} ({r['outcome_summary']['status']})\" for r in failed]\n"
        'result = f"{len(failed)} failed of {len(conversation_history)}:\\n" + "\\n".join(lines)\n'
    )
    COUNT = (
        "h = context['conversation_history']\n"
        "result = sum(1 for r in h if not r['outcome_summary']['ok'])\n"
    )

    def test_a_decorated_listing_is_the_bare_listing_and_a_count_is_not(self) -> None:
        bare = _behaviour.behaviour_sketch(self.BARE, "python")
        decorated = _behaviour.behaviour_sketch(self.DECORATED, "python")
        count = _behaviour.behaviour_sketch(self.COUNT, "python")
        assert bare is not None and decorated is not None and count is not None
        assert similarity(bare, decorated) == 1.0
        assert similarity(bare, count) < 0.2

    @needs_ruby
    def test_the_same_holds_for_ruby(self) -> None:
        bare = "(context[:conversation_history] || []).reject { |r| r[:outcome_summary][:ok] }.map { |r| r[:call_id] }"
        decorated = (
            "h = context[:conversation_history] || []\n"
            "bad = h.select { |r| r.dig(:outcome_summary, :status) == 'error' }\n"
            'bad.map { |r| "#{r[:call_id]} #{r[:method_name]}" }.join("\\n")\n'
        )
        a, b = (_behaviour.behaviour_sketch(c, "ruby") for c in (bare, decorated))
        assert a is not None and b is not None
        assert similarity(a, b) == 1.0


class TestTellingAtoms:
    """Scheme v4: a named record and a specific number count twice."""

    @pytest.mark.parametrize(
        ("atom", "telling"),
        [
            ("rec:1.04", True),
            ("num:0.58", True),
            ("num:10126", True),
            ("num:1.7e+02", True),
            ("num:-2.5", True),
            ("num:0.33#2", True),
            ("num:24", False),
            ("num:3#2", False),
            ("num:nan", False),
            ("method:beta_op", False),
            ("bool:True", False),
            ("empty", False),
        ],
    )
    def test_which_atoms_tell(self, atom: str, telling: bool) -> None:
        assert _behaviour._telling(atom) is telling

    def test_a_telling_atom_gets_a_second_copy_in_the_features(self) -> None:
        code = "result = [r['call_id'] for r in conversation_history[-2:]]"
        outcome = _behaviour.run(code, "python")
        assert outcome is not None
        found = _behaviour.features(code, "python", outcome)
        records = {f for f in found if ":rec:" in f and not f.endswith("*2")}
        assert records and {f"{f}*2" for f in records} <= found
