"""Behavioural sketches: programs run on probe histories in a sandbox process, hashed by what they answer."""

from __future__ import annotations

import itertools
import keyword
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recurscope.instrumentation.analysis import _behaviour, _mutations, analyze_code, program_sketch
from recurscope.instrumentation.analysis._probes import (
    _POOLS,
    _second_example,
    input_defaults,
    literals,
    needles,
    probes,
    record_keys,
    regex_example,
    trigger_texts,
)
from recurscope.instrumentation.analysis._sketch import similarity

PROBE_WORDS = {v for pool in _POOLS.values() for v in pool} | {"ok", "error", "String"}
PROBE_WORDS |= {"Integer", "Hash", "query", "term", "limit", "target"}
needs_ruby = pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby is not installed")

LAST_USERS = """
history = context["conversation_history"]
users = [r for r in history if r["speaker"] == "user"]
result = [r["content"] for r in users[-3:]]
"""
LAST_USERS_LOOP = """
picked = []
for record in reversed(conversation_history):
    if record.get("speaker") != "user":
        continue
    picked.append(record.get("content"))
    if len(picked) == 3:
        break
picked.reverse()
result = {"recent_user_messages": picked, "shown": len(picked)}
"""
FIRST_USERS = """
history = context["conversation_history"]
users = [r for r in history if r["speaker"] == "user"]
result = [r["content"] for r in users[:3]]
"""
RB_TALLY = "h = context[:conversation_history] || []\nh.map { |r| r[:method_name] }.tally\n"
RB_TALLY_LOOP = """
counts = Hash.new(0)
(context[:conversation_history] || []).each do |rec|
  counts[rec[:method_name]] += 1
end
"Calls per method: " + counts.map { |m, n| "#{m}=#{n}" }.join(", ")
"""
RB_DISTINCT = "h = context[:conversation_history] || []\nh.map { |r| r[:method_name] }.uniq\n"


def sketch(code: str, language: str = "python") -> str:
    analysis = analyze_code(code, language)
    assert analysis.sketch is not None, "the program must read the history"
    found = program_sketch(code, language, analysis.sketch)
    assert found is not None
    return found


def behaviour(code: str, language: str = "python") -> str:
    found = _behaviour.behaviour_sketch(code, language)
    assert found is not None, "the program's answers must say something"
    return found


class TestWhatItGroups:
    def test_a_respelled_program_is_near_and_a_hard_negative_is_not(self) -> None:
        a, b, negative = behaviour(LAST_USERS), behaviour(LAST_USERS_LOOP), behaviour(FIRST_USERS)
        assert similarity(a, b) >= 0.7
        assert similarity(a, negative) < 0.5

    @needs_ruby
    def test_ruby_tallies_are_near_and_distinct_values_are_not(self) -> None:
        a, b = behaviour(RB_TALLY, "ruby"), behaviour(RB_TALLY_LOOP, "ruby")
        assert similarity(a, b) >= 0.7
        assert similarity(a, behaviour(RB_DISTINCT, "ruby")) < 0.7

    def test_the_same_program_in_two_languages_gives_the_same_features(self) -> None:
        python = "result = sorted({r['method_name'] for r in conversation_history})"
        ruby = "(context[:conversation_history] || []).map { |r| r[:method_name] }.uniq.sort"
        outcome_py = _behaviour.run(python, "python")
        assert outcome_py is not None
        found_py = _behaviour.features(python, "python", outcome_py)
        if shutil.which("ruby"):
            outcome_rb = _behaviour.run(ruby, "ruby")
            assert outcome_rb is not None
            assert _behaviour.features(ruby, "ruby", outcome_rb) == found_py

    def test_a_program_whose_answers_say_nothing_keeps_its_static_sketch(self) -> None:
        code = "result = [r for r in conversation_history if r['depth'] > 1000]"
        analysis = analyze_code(code, "python")
        assert _behaviour.behaviour_sketch(code, "python") is None
        assert program_sketch(code, "python", analysis.sketch) == analysis.sketch

    def test_code_that_never_reads_the_history_gets_no_sketch(self) -> None:
        assert program_sketch("x = 1 + 1", "python", None) is None


class TestContentFree:
    def test_features_name_probe_records_and_values_never_the_program_text(self) -> None:
        code = (
            'SECRET_TOOL = "acme_internal_lookup"\n'
            "matches = [r for r in conversation_history if r['method_name'] == SECRET_TOOL]\n"
            'result = {"customer_label": [m["call_id"] for m in matches], "note": "Zebra-42"}\n'
        )
        assert literals(code, "python") == [("acme_internal_lookup", "method")]
        outcome = _behaviour.run(code, "python")
        assert outcome is not None
        found = _behaviour.features(code, "python", outcome)
        text = " ".join(sorted(found))
        for leak in ("acme", "SECRET", "customer_label", "Zebra", "matches", "note"):
            assert leak not in text
        assert any(":rec:" in f for f in found)  # the matching probe records, by position

    @settings(
        max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(
        names=st.lists(
            st.from_regex(r"[a-z][a-z0-9_]{2,10}", fullmatch=True).filter(
                lambda s: (
                    not keyword.iskeyword(s)
                    and s not in dir(__builtins__)
                    and s
                    not in {
                        "conversation_history",
                        "context",
                        "kwargs",
                        "args",
                        "result",
                        "history",
                    }
                )
            ),
            min_size=3,
            max_size=3,
            unique=True,
        ),
        # wording, not data: a label that spells a probe value ("ok", "user") is read as it
        label=st.from_regex(r"[A-Za-z][A-Za-z ]{0,20}", fullmatch=True).filter(
            lambda s: not set(s.split()) & PROBE_WORDS
        ),
    )
    def test_renamed_variables_and_new_wording_leave_the_sketch_unchanged(
        self, names: list[str], label: str
    ) -> None:
        rows, item, out = names
        code = (
            f"{rows} = context['conversation_history']\n"
            f"{out} = [{item}['call_id'] for {item} in {rows} if not {item}['outcome_summary']['ok']]\n"
            f"result = {{{label!r}: {out}}}\n"
        )
        reference = (
            "h = context['conversation_history']\n"
            "x = [r['call_id'] for r in h if not r['outcome_summary']['ok']]\n"
            "result = {'failed': x}\n"
        )
        assert behaviour(code) == behaviour(reference)

    def test_the_probes_are_fixed(self) -> None:
        assert probes() == probes()
        assert probes([("web_search", "method")]) == probes([("web_search", "method")])
        first = probes()[0]["history"]
        assert len(first) == 24 and first[0]["call_id"] == "call-0-00"


class TestSandbox:
    def test_a_program_that_never_ends_is_cut_off(self) -> None:
        start = time.monotonic()
        outcome = _behaviour.run("while True:\n    pass\nresult = conversation_history", "python")
        assert time.monotonic() - start < 8
        assert outcome is not None and not any(r["ok"] for r in outcome)

    def test_a_program_cannot_write_files_start_processes_or_print_into_the_answers(
        self, tmp_path: Path
    ) -> None:
        target = tmp_path / "written"
        code = (
            f"open({str(target)!r}, 'w').write('x')\n"
            "import os\n"
            f"os.system('touch {target}')\n"
            "print('noise on stdout')\n"
            "result = len(conversation_history)\n"
        )
        # open, os and print are inert stubs: the program runs on, and nothing is written
        assert _behaviour.run(code, "python") == [
            {"ok": True, "value": n} for n in (24, 16, 30, 20)
        ]
        assert not target.exists()

    def test_a_memory_bomb_is_a_failed_answer_not_a_dead_host(self) -> None:
        outcome = _behaviour.run(
            "result = 'x' * (2 ** 34) + str(len(conversation_history))", "python"
        )
        assert outcome is not None and outcome[0] == {"ok": False, "error": "MemoryError"}

    def test_a_crashed_sandbox_is_restarted(self) -> None:
        assert _behaviour.run("result = len(conversation_history)", "python") is not None
        worker = _behaviour._WORKERS["python"]
        proc = worker._proc
        assert proc is not None
        proc.kill()
        proc.wait()
        assert _behaviour.run("result = len(conversation_history) + 1", "python") is not None
        assert worker._proc is not None and worker._proc.pid != proc.pid

    @needs_ruby
    def test_ruby_programs_cannot_touch_files_or_processes(self, tmp_path: Path) -> None:
        target = tmp_path / "written"
        code = (
            f'File.write("{target}", "x")\n'
            f'system("touch {target}")\n'
            'puts "noise"\n'
            "ignored = gets.to_s + STDIN.read.to_s\n"  # its input is not the sandbox's requests
            "(context[:conversation_history] || []).size\n"
        )
        assert _behaviour.run(code, "ruby") == [{"ok": True, "value": n} for n in (24, 16, 30, 20)]
        assert not target.exists()

    @pytest.mark.parametrize(
        ("language", "reader", "editor"),
        [
            (
                "ruby",
                "h = context[:conversation_history] || []\n"
                "h.map { |r| r[:content] }.compact.map(&:size).sum",
                "h = context[:conversation_history] || []\n"
                "h.each { |r| r[:content] << '!' if r[:content].is_a?(String) }\n"
                "h.each { |r| r[:outcome_summary][:status]&.upcase! if r[:outcome_summary] }\n"
                "h.size",
            ),
            (
                "python",
                "h = context.get('conversation_history', [])\n"
                "result = sum(len(r['content']) for r in h if isinstance(r.get('content'), str))",
                "h = context.get('conversation_history', [])\n"
                "for r in h:\n    r['content'] = (r.get('content') or '') + '!'\n"
                "result = len(h)",
            ),
        ],
    )
    def test_a_program_editing_the_history_in_place_changes_no_other_run(
        self, language: str, reader: str, editor: str
    ) -> None:
        """Each run gets its own copy of the probe, strings too: the sketch never depends on what ran before."""
        if language == "ruby" and shutil.which("ruby") is None:
            pytest.skip("ruby is not installed")
        probe_set = _behaviour._probes_for(reader, language)
        assert _behaviour._probes_for(editor, language).key == probe_set.key  # one cached probe set
        before = _behaviour.run(reader, language, probe_set, edit=True)
        assert _behaviour.run(editor, language, probe_set, edit=True) is not None
        assert _behaviour.run(editor, language, probe_set, edit=True) is not None
        after = _behaviour.run(reader, language, probe_set, edit=True)
        assert before is not None and after is not None
        assert list(after) == list(before) and after.changed == before.changed

    def test_without_an_interpreter_the_sketch_stays_static(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        code = "(context[:conversation_history] || []).map { |r| r[:speaker] }.tally"
        analysis = analyze_code(code, "ruby")
        monkeypatch.setattr(_behaviour.shutil, "which", lambda name: None)
        monkeypatch.setattr(_behaviour, "_CACHE", type(_behaviour._CACHE)())
        assert not _behaviour.available("ruby")
        assert program_sketch(code, "ruby", analysis.sketch) == analysis.sketch

    def test_the_switch_turns_the_sandbox_off(self, monkeypatch: pytest.MonkeyPatch) -> None:
        analysis = analyze_code(LAST_USERS, "python")
        monkeypatch.setenv(_behaviour.ENV_SWITCH, "static")
        assert program_sketch(LAST_USERS, "python", analysis.sketch) == analysis.sketch
        monkeypatch.delenv(_behaviour.ENV_SWITCH)
        assert program_sketch(LAST_USERS, "python", analysis.sketch) != analysis.sketch

    def test_the_answers_switch_skips_the_edits_and_still_matches_on_answers(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        analysis = analyze_code(FAILED_COUNT, "python")
        full = program_sketch(FAILED_COUNT, "python", analysis.sketch)
        monkeypatch.setenv(_behaviour.ENV_SWITCH, "answers")
        monkeypatch.setattr(_behaviour, "_CACHE", type(_behaviour._CACHE)())
        answers = program_sketch(FAILED_COUNT, "python", analysis.sketch)
        assert full is not None and answers is not None
        assert len(full) == 1024 and answers == full[:512]
        assert similarity(full, answers) == 1.0

    def test_hostile_code_never_raises(self) -> None:
        for code in (
            "result = conversation_history[",  # does not parse: no static sketch either
            "raise SystemExit(3)\nresult = conversation_history",
            "import sys\nsys.exit(1)\nresult = conversation_history",
            "result = conversation_history\n" + "x = 1\n" * 5000,
            "\x00result = conversation_history",
            "def f(): return f()\nresult = f() or conversation_history",
        ):
            analysis = analyze_code(code, "python")
            program_sketch(code, "python", analysis.sketch)  # never raises
        assert os.getpid() > 0


def test_the_ruby_runner_ships_as_package_data() -> None:
    assert (Path(_behaviour.__file__).parent / "_sandbox.rb").is_file()
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert '"*.rb"' in pyproject


MEAN_GAP_SECONDS = """
from datetime import datetime
stamps = [datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) for r in conversation_history]
gaps = [(b - a).total_seconds() for a, b in zip(stamps, stamps[1:])]
result = {"mean_seconds": round(sum(gaps) / len(gaps), 1), "gaps": len(gaps)} if gaps else {}
"""
MEAN_GAP_MINUTES = """
import datetime as dt
total = 0.0
count = 0
previous = None
for record in context["conversation_history"]:
    moment = dt.datetime.strptime(record["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
    if previous is not None:
        total += (moment - previous).total_seconds() / 60
        count += 1
    previous = moment
result = f"average pause: {total / count:.2f} min over {count} gaps" if count else "no pauses"
"""
FAILED_COUNT = 'result = sum(1 for r in conversation_history if not r["outcome_summary"]["ok"])'
FAILED_SHARE = """
h = conversation_history
result = sum(1 for r in h if not r["outcome_summary"]["ok"]) / len(h) if h else 0
"""
RB_FAILED_COUNT = "(context[:conversation_history] || []).count { |r| !r[:outcome_summary][:ok] }"


def marks(code: str, language: str) -> dict[str, str]:
    """Probe 0's mark for each edit, by the edit's name."""
    probe_set = _behaviour._probes_for(code, language)
    outcome = _behaviour.run(code, language, probe_set, edit=True)
    assert outcome is not None
    names = [name for name, _ in probe_set.edits[0]]
    return dict(zip(names, outcome.changed[0], strict=True))


class TestFootprint:
    def test_a_duration_in_seconds_and_in_minutes_is_one_program(self) -> None:
        seconds, minutes = behaviour(MEAN_GAP_SECONDS), behaviour(MEAN_GAP_MINUTES)
        assert len(seconds) == len(minutes) == 1024
        # The answers alone share only the count of pauses: apart.
        assert 0.2 <= similarity(seconds[:512], minutes[:512]) < 0.7
        assert similarity(seconds, minutes) >= 0.95  # the footprints: one program

    def test_a_count_and_a_share_of_the_same_records_are_not(self) -> None:
        count, share = behaviour(FAILED_COUNT), behaviour(FAILED_SHARE)
        # Dropping an ok record moves only the share.
        assert similarity(count[512:], share[512:]) < 0.95
        assert similarity(count, share) < 0.7

    @pytest.mark.parametrize(
        ("code", "language"),
        [(FAILED_COUNT, "python"), pytest.param(RB_FAILED_COUNT, "ruby", marks=needs_ruby)],
    )
    def test_the_runners_mark_how_each_edit_moves_the_answer(
        self, code: str, language: str
    ) -> None:
        probe = probes()[0]["history"]
        ok = next(i for i, r in enumerate(probe) if r["outcome_summary"]["ok"])
        failed = next(i for i, r in enumerate(probe) if not r["outcome_summary"]["ok"])
        seen = marks(code, language)
        assert seen[f"flip.{ok}"] == "+" and seen[f"flip.{failed}"] == "-"
        assert seen[f"drop.{failed}"] == "-" and seen[f"drop.{ok}"] == "0"
        assert seen["fail"] == "+" and seen["stretch"] == seen["shift"] == "0"

    def test_a_program_every_record_edit_changes_has_no_footprint(self) -> None:
        dump = 'result = [(r["call_id"], r["outcome_summary"]["status"]) for r in conversation_history]'
        assert len(behaviour(dump)) == 512
        assert len(behaviour(FAILED_COUNT)) == 1024

    def test_the_footprint_names_no_identifier_or_literal(self) -> None:
        probe_set = _behaviour._probes_for(MEAN_GAP_MINUTES, "python")
        outcome = _behaviour.run(MEAN_GAP_MINUTES, "python", probe_set, edit=True)
        assert outcome is not None
        found = _behaviour.footprint(outcome, probe_set)
        assert found and all(
            f.split(":", 1)[1].split("=")[0].split(".")[0] in _mutations.KINDS for f in found
        )
        assert not any(word in f for f in found for word in ("pause", "min", "total", "moment"))


SUM_KWARG = """
key = kwargs.get("key", "timeout")
total = 0
for rec in conversation_history:
    value = (rec.get("kwargs") or {}).get(key)
    if isinstance(value, (int, float)):
        total += value
result = total
"""
SUM_KWARG_OR = """
wanted = kwargs.get("key") or "timeout"
values = [
    r["kwargs"][wanted]
    for r in context["conversation_history"]
    if isinstance((r.get("kwargs") or {}).get(wanted), (int, float))
]
result = {"key": wanted, "total": sum(values), "calls": len(values)}
"""
MEAN_KWARG = """
name = kwargs["key"] if "key" in kwargs else "timeout"
values = [(r.get("kwargs") or {}).get(name) for r in conversation_history]
values = [v for v in values if isinstance(v, (int, float))]
result = sum(values) / len(values) if values else 0
"""


class TestProbeSituations:
    """What the probes hold so that a program has something to answer (scheme v6)."""

    @pytest.mark.parametrize("code", [SUM_KWARG, SUM_KWARG_OR, MEAN_KWARG])
    def test_a_parameter_default_names_a_numeric_record_key(self, code: str) -> None:
        assert input_defaults(code) == {"key": "timeout"}
        assert record_keys(code) == ["timeout"]  # the parameter's own name is not a record key
        history = probes(keys=record_keys(code))[0]["history"]
        held = [r["kwargs"]["timeout"] for r in history if "timeout" in r["kwargs"]]
        assert held and all(isinstance(v, int) for v in held)

    def test_which_records_hold_a_key_depends_on_that_key_alone(self) -> None:
        def holders(keys: list[str]) -> list[int]:
            history = probes(keys=keys)[1]["history"]
            return [i for i, r in enumerate(history) if "timeout" in r["kwargs"]]

        assert (
            holders(["timeout"]) == holders(["attempts", "timeout"]) == holders(["timeout", "zz"])
        )

    def test_some_records_state_no_need(self) -> None:
        for probe in probes():
            unstated = [r for r in probe["history"] if not r["need"]]
            assert 0 < len(unstated) < len(probe["history"]) / 3

    def test_one_probe_holds_what_real_histories_sometimes_do(self) -> None:
        def oddities(history: list[dict[str, Any]]) -> dict[str, bool]:
            stamps = [str(r["timestamp"]) for r in history]
            ids = [r["call_id"] for r in history]
            by_id = {r["call_id"]: r for r in history}
            return {
                "backwards": any(b < a for a, b in itertools.pairwise(stamps)),
                "same time": len(set(stamps)) < len(stamps),
                "id twice": len(set(ids)) < len(ids),
                "nil kwarg": any(None in r["kwargs"].values() for r in history),
                "link": any("https://" in str(r["content"]) for r in history),
                "quote": any('"' in str(r["content"]) for r in history),
                "blank": any(r["content"] == "" for r in history),
                "true kwarg": any(True in r["kwargs"].values() for r in history),
                "silent failure": any(
                    not r["outcome_summary"]["ok"] and r["outcome_summary"]["error_message"] is None
                    for r in history
                ),
                "parent's args": any(
                    r["parent_call_id"] in by_id and r["args"] == by_id[r["parent_call_id"]]["args"]
                    for r in history
                ),
            }

        found = [oddities(probe["history"]) for probe in probes()]
        assert all(found[2].values())
        assert not any(v for p in (0, 1, 3) for v in found[p].values())

    def test_a_program_looking_for_a_clock_skew_has_answers(self) -> None:
        regressions = """
stamps = [r["timestamp"] for r in conversation_history]
result = [conversation_history[i]["call_id"] for i in range(1, len(stamps)) if stamps[i] < stamps[i - 1]]
"""
        assert len(behaviour(regressions)) in (512, 1024)  # not static: it found one

    def test_summed_keyword_argument_spellings_are_one_program_and_a_mean_is_not(self) -> None:
        loop, generator, mean = behaviour(SUM_KWARG), behaviour(SUM_KWARG_OR), behaviour(MEAN_KWARG)
        assert len(loop) == len(generator) == len(mean) == 1024
        assert similarity(loop, generator) >= 0.8
        assert similarity(loop, mean) < 0.5 and similarity(generator, mean) < 0.5

    def test_the_footprint_says_that_an_edit_changes_the_answer_and_how(self) -> None:
        probe_set = _behaviour._probes_for(FAILED_COUNT, "python")
        outcome = _behaviour.run(FAILED_COUNT, "python", probe_set, edit=True)
        assert outcome is not None
        found = _behaviour.footprint(outcome, probe_set)
        history = probe_set.probes[0]["history"]
        failed = next(i for i, r in enumerate(history) if not r["outcome_summary"]["ok"])
        ok = next(i for i, r in enumerate(history) if r["outcome_summary"]["ok"])
        assert {f"0:drop.{failed}", f"0:drop.{failed}=-"} <= found
        assert not any(f.startswith(f"0:drop.{ok}") for f in found)  # an ok record dropped: alike


class TestWhatAProgramSearchesFor:
    """Probe 2 holds what a program searches record texts for (scheme v9)."""

    @pytest.mark.parametrize(
        ("pattern", "example"),
        [
            (r"\b[45]\d\d\b", "444"),
            (r"\d{3}", "444"),  # a digit class gives 4: both spellings find one code
            (r"HTTP\s+(\d{3})", "HTTP 444"),
            (r"(?:[\w-]+/)*[\w-]+\.(?:py|rb)", "4/4.py"),
            (r"^(\w+)-\1$", "4-4"),
            (r"[^\s]+\.json", "a.json"),
            (r"(", None),  # not a pattern
            (r"\Z", None),  # matches only an empty text
        ],
    )
    def test_a_pattern_gives_its_shortest_match(self, pattern: str, example: str | None) -> None:
        assert regex_example(pattern) == example
        if example is not None:
            assert re.search(pattern, example)

    @given(pattern=st.sampled_from([r"\w+@\w+\.com", r"v\d+\.\d+", r"[A-Z]{2,}-\d+", r"#\w+"]))
    @settings(max_examples=10, deadline=None)
    def test_every_example_is_found_by_its_pattern(self, pattern: str) -> None:
        example = regex_example(pattern)
        assert example is not None and re.fullmatch(pattern, example)

    def test_what_a_program_searches_for_is_found_in_probe_two(self) -> None:
        code = """
import re
codes = []
for r in conversation_history:
    message = (r.get("outcome_summary") or {}).get("error_message") or ""
    codes += re.findall(r"\\b[45]\\d\\d\\b", message)
if "partial" in (r.get("content") or ""):
    pass
result = codes
"""
        found = needles(code, "python")
        assert [text for _, text in found] == ["444", "partial"]
        history = probes(texts=found)[2]["history"]
        assert any("444" in str(r["outcome_summary"]["error_message"]) for r in history)
        assert all("444" not in str(r["content"]) for r in probes(texts=found)[0]["history"])

    def test_ruby_patterns_and_fragments_are_read(self) -> None:
        code = (
            "PATH = %r{(?:[\\w.-]+/)+[\\w-]+\\.rb}\n"
            "(context[:conversation_history] || []).flat_map { |r| r[:content].to_s.scan(PATH) }\n"
            '.select { |p| p.end_with?(".rb") }'
        )
        assert {text for _, text in needles(code, "ruby")} == {".rb", "4/4.rb"}

    def test_a_pattern_the_probe_already_matches_plants_nothing(self) -> None:
        before = probes()[2]["history"]
        after = probes(texts=needles('import re\nx = re.findall(r"https?://\\S+", t)', "python"))
        assert after[2]["history"] == before  # probe 2 already holds links


# -- triggers (scheme v10): what a program whose answers are all empty looks for ---------------

ORPHANS = """
known = {r["call_id"] for r in conversation_history}
result = [r["call_id"] for r in conversation_history
          if r.get("parent_call_id") and r["parent_call_id"] not in known]
"""
ORPHANS_TEXT = """
history = context.get("conversation_history") or []
seen = set()
for rec in history:
    seen.add(rec.get("call_id"))
lost = []
for rec in history:
    parent = rec.get("parent_call_id")
    if parent is not None and parent != "" and parent not in seen:
        lost.append(rec.get("call_id"))
result = "orphans: " + ", ".join(lost) if lost else "every parent is present"
"""
LATE_PARENTS = """
position = {r["call_id"]: i for i, r in enumerate(conversation_history)}
result = [r["call_id"] for i, r in enumerate(conversation_history)
          if r.get("parent_call_id") in position and position[r["parent_call_id"]] > i]
"""
RB_ORPHANS = """
h = context[:conversation_history] || []
ids = h.map { |r| r[:call_id] }
h.select { |r| r[:parent_call_id] && !ids.include?(r[:parent_call_id]) }.map { |r| r[:call_id] }
"""
CITING_ERRORS = """
result = [r["call_id"] for r in conversation_history
          if not (r.get("outcome_summary") or {}).get("ok", True)
          and any(isinstance(a, str) and a in ((r["outcome_summary"].get("error_message")) or "")
                  for a in r.get("args") or [])]
"""
CITING_ERRORS_COUNT = CITING_ERRORS.replace("result = [", "found = [") + "result = len(found)\n"


def looked_for(code: str, language: str = "python") -> set[str]:
    outcome = _behaviour.run(code, language)
    assert outcome is not None
    found = _behaviour.features(code, language, outcome)
    assert not _behaviour.informative(found), "the program's answers must all be empty"
    return _behaviour.trigger_features(code, language, outcome, found)


class TestTriggers:
    def test_respellings_that_find_nothing_in_the_probes_are_one_program(self) -> None:
        a, b = sketch(ORPHANS), sketch(ORPHANS_TEXT)
        assert len(a) == 512 and a != analyze_code(ORPHANS, "python").sketch  # not the static one
        assert similarity(a, b) >= 0.9
        assert looked_for(ORPHANS) == looked_for(ORPHANS_TEXT)

    def test_a_hard_negative_that_also_finds_nothing_is_apart(self) -> None:
        assert similarity(sketch(ORPHANS), sketch(LATE_PARENTS)) < 0.5
        assert {"t:2:parent.missing.fail", "t:2:parent.missing.fail@"} <= looked_for(ORPHANS)
        assert {"t:2:parent.later.fail", "t:2:parent.later.fail@"} <= looked_for(LATE_PARENTS)
        assert not any(f.startswith("t:2:parent.missing") for f in looked_for(LATE_PARENTS))

    @needs_ruby
    def test_ruby_gives_the_same_triggers(self) -> None:
        assert looked_for(RB_ORPHANS, "ruby") == looked_for(ORPHANS)

    def test_the_answer_naming_the_edited_record_is_its_own_feature(self) -> None:
        listed, counted = looked_for(CITING_ERRORS), looked_for(CITING_ERRORS_COUNT)
        assert "t:2:cite.arg.error.fail@" in listed and "t:2:cite.arg.error.fail" in counted
        assert "t:2:cite.arg.error.fail@" not in counted  # a count names no record
        assert not any(f.startswith("t:2:cite.method") for f in listed)

    def test_texts_a_program_holds_are_placed_without_their_names_in_the_features(self) -> None:
        code = (
            'PREFIXES = ("sk-", "ghp_")\n'
            'result = [r["call_id"] for r in conversation_history\n'
            '          if any(str(a).startswith(PREFIXES) for a in r.get("args") or [])]\n'
        )
        assert trigger_texts(code, "python")[:2] == ("ghp_", "sk-")
        found = looked_for(code)
        assert "t:2:text.arg.user@" in found
        assert not any("sk-" in f or "ghp_" in f or "PREFIXES" in f for f in found)

    def test_every_trigger_applies_to_probe_two_in_both_runners(self) -> None:
        dump = 'result = [(r["call_id"], r.get("content")) for r in conversation_history if r["depth"] > 99]'
        rb_dump = "(context[:conversation_history] || []).select { |r| r[:depth] > 99 }.map { |r| r[:call_id] }"
        for code, language in ((dump, "python"), (rb_dump, "ruby")):
            if language == "ruby" and shutil.which("ruby") is None:
                continue
            probe_set = _behaviour._probes_for(code, language, triggered=True)
            outcome = _behaviour.run(code, language, probe_set, edit=True)
            assert outcome is not None
            assert "?" not in outcome.changed[_mutations.TRIGGER_PROBE]
            assert (
                len(outcome.changed[2])
                == len(probe_set.edits[2])
                > len(_mutations.mutations(probe_set.probes[2]))
            )

    def test_triggers_are_fixed_and_edit_only_the_picked_records(self) -> None:
        probe = probes()[2]
        picks = _mutations._picks(probe["history"])
        assert picks == {"fail": (20, 13), "ok": (12, 5), "user": (10, 3)}
        edits = _mutations.triggers(probe, ("x-1",))
        assert edits == _mutations.triggers(probes()[2], ("x-1",))
        edited = {op[1] for _, ops in edits for op in ops if op[0] == "set"}
        assert edited == {20, 12, 10}


def test_a_pattern_python_would_warn_about_is_read_quietly() -> None:
    """Ruby's ``[[:upper:]]`` makes Python's parser warn; a sketch never prints on the host's stderr."""
    import warnings

    pattern = "[[:upper:]]{2}q7z"  # new to this process: re's cache has not compiled it yet
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        regex_example(pattern)
        probes(texts=[(pattern, "q7z")])
    assert not [w for w in seen if issubclass(w.category, FutureWarning)]
    with pytest.warns(FutureWarning):  # the check above can fail: Python does warn
        re.compile("[[:lower:]]{3}k9w")


SHOUTED = """
result = [r["call_id"] for r in conversation_history
          if r.get("speaker") == "user" and r.get("content") and r["content"] == r["content"].upper()]
"""
SHOUTED_LOOP = """
loud = []
for entry in context.get("conversation_history") or []:
    text = entry.get("content") or ""
    if entry.get("role") == "user" and text and not any(c.islower() for c in text):
        loud.append(entry.get("call_id"))
result = {"shouted": loud, "n": len(loud)}
"""
SAYS_BOTH = """
result = [r["call_id"] for r in conversation_history
          if (r.get("outcome_summary") or {}).get("ok") is True
          and r["outcome_summary"].get("status") != "ok"]
"""
RB_REUSED = """
h = context[:conversation_history] || []
given = {}
h.each_with_object([]) do |r, out|
  out << r[:call_id] if (r[:args] || []).any? { |a| given.key?(a) }
  s = (r[:outcome_summary] || {})[:summary]
  given[s] = true if s
end
"""


class TestTriggersV11:
    def test_texts_in_capitals_are_one_program_whatever_the_spelling(self) -> None:
        a, b = looked_for(SHOUTED), looked_for(SHOUTED_LOOP)
        assert "t:2:shape.upper.content.user@" in a
        assert a == b
        assert similarity(sketch(SHOUTED), sketch(SHOUTED_LOOP)) >= 0.9

    def test_an_outcome_field_disagreeing_with_ok_is_a_trigger(self) -> None:
        found = looked_for(SAYS_BOTH)
        assert {"t:2:outcome.status.ok", "t:2:outcome.status.ok@"} <= found
        assert "t:2:outcome.status.fail" not in found  # a failure saying "ok" is the other way

    @needs_ruby
    def test_another_records_summary_as_an_argument_is_a_trigger(self) -> None:
        found = looked_for(RB_REUSED, "ruby")
        assert "t:2:copy.summary.arg.fail@" in found
        assert not any(f.startswith("t:2:copy.id") for f in found)

    def test_every_shape_applies_to_every_text_of_the_picked_records(self) -> None:
        names = [name for name, _ in _mutations.triggers(probes()[2])]
        assert len(names) == len(set(names)) == 243 + 3 * 23  # scheme v15: 23 kinds a record

        for shape in _mutations._SHAPES:
            for field in ("content", "arg", "kwarg", "summary", "error"):
                assert f"shape.{shape}.{field}.user" in names


def test_a_program_that_gives_no_answer_runs_no_trigger(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step that only prints (the smolagents pattern) costs no edits on the recording thread."""
    code = "recent = conversation_history[-3:]\nprint(len(conversation_history), recent[-1]['method_name'])"
    outcome = _behaviour.run(code, "python")
    assert outcome is not None and all(r.get("value") is None for r in outcome)
    found = _behaviour.features(code, "python", outcome)
    asked: list[bool] = []
    monkeypatch.setattr(_behaviour, "run", lambda *a, **k: asked.append(True))
    assert _behaviour.trigger_features(code, "python", outcome, found) == set()
    assert not asked


STOPPED = """
halted = False
out = []
for r in conversation_history:
    if r.get("role") == "user":
        halted = "stop" in (r.get("content") or "").lower().split()
    elif halted and r.get("role") == "tool":
        out.append(r["call_id"])
result = out
"""
STOPPED_TEXT = r"""
import re
history = context.get("conversation_history") or []
request = None
lines = []
for step in history:
    if step.get("role") == "user":
        request = step if re.search(r"\bstop\b", str(step.get("content")), re.I) else None
    elif request is not None and step.get("role") == "tool":
        lines.append(f"{step['call_id']} ran after a stop request")
result = {"role": "tool", "after_stop": lines}
"""
RB_STOPPED = r"""
h = context[:conversation_history] || []
stopped = false
h.each_with_object([]) do |r, acc|
  if r[:role] == "user"
    stopped = r[:content].to_s =~ /\bstop\b/i ? true : false
  elsif stopped && r[:role] == "tool"
    acc << r[:call_id]
  end
end
"""
STOPPED_BEFORE = STOPPED.replace("elif halted and", "elif not halted and")


class TestComposedEdits:
    """Scheme v13: what a program looks for when no single trigger makes it true."""

    def test_a_program_looking_for_two_things_at_once_is_found_by_composed_edits_only(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        found = looked_for(STOPPED)
        assert found and all(f.startswith("t:2:z") for f in found)
        assert any(f.endswith("@") for f in found)  # the tool call after the request is named
        _behaviour._probe_set.cache_clear()
        monkeypatch.setattr(_behaviour, "composed", lambda probe, texts=(): [])
        try:
            assert looked_for(STOPPED) == set()  # no single trigger finds it
        finally:
            _behaviour._probe_set.cache_clear()

    def test_respellings_are_one_program_and_the_opposite_is_apart(self) -> None:
        a, b = sketch(STOPPED), sketch(STOPPED_TEXT)
        assert similarity(a, b) >= 0.9
        assert similarity(a, sketch(STOPPED_BEFORE)) < 0.5

    @needs_ruby
    def test_ruby_finds_the_same(self) -> None:
        assert similarity(sketch(STOPPED), sketch(RB_STOPPED, "ruby")) >= 0.9

    def test_an_answer_alike_on_every_probe_is_sketched_by_what_it_looks_for(self) -> None:
        outcome = _behaviour.run(STOPPED_TEXT, "python")
        assert outcome is not None
        found = _behaviour.features(STOPPED_TEXT, "python", outcome)
        assert _behaviour.informative(found) and _behaviour.constant(outcome)
        assert _behaviour.trigger_features(STOPPED_TEXT, "python", outcome, found) == looked_for(
            STOPPED
        )

    def test_composed_edits_are_fixed_and_name_every_record_they_touch(self) -> None:
        probe = probes()[2]
        edits = _mutations.composed(probe, ("x-1",))
        assert edits == _mutations.composed(probes()[2], ("x-1",))
        assert [name for name, _ in edits] == [f"z{k}" for k in range(_mutations.COMPOSED_EDITS)]
        ids = [r["call_id"] for r in probe["history"]]
        for _, ops in edits:
            named = {op[1] for op in ops if op[0] == "name"}
            fields = {ids[op[1]] for op in ops if op[0] == "set" and op[2] != ["timestamp"]}
            assert fields <= named  # a long pause moves every later record: only its first is named
            assert {op[1]["call_id"] for op in ops if op[0] == "add"} <= named
        kinds = {
            op[2][0] if op[0] == "set" else op[0]
            for _, ops in edits
            for op in ops
            if op[0] != "name"
        }
        assert {
            "role",
            "content",
            "args",
            "kwargs",
            "parent_call_id",
            "timestamp",
            "depth",
            "add",
        } <= kinds


TAGS = r"""
import re
result = sorted({t for r in conversation_history if r.get("role") == "user"
                 for t in re.findall(r"#(\w+)", r.get("content") or "")})
"""
TAGS_LOOP = r"""
import re
found = []
for entry in context.get("conversation_history") or []:
    if entry.get("role") != "user":
        continue
    for tag in re.findall(r"#([A-Za-z0-9_]+)", str(entry.get("content") or "")):
        if tag not in found:
            found.append(tag)
result = {"tags": sorted(found)}
"""
VERSIONS = TAGS.replace(r'r"#(\w+)"', r'r"\bv?(\d+\.\d+(?:\.\d+)?)\b"')


class TestTypedTexts:
    """Scheme v14: which kinds of text a program reacts to."""

    def typed(self, code: str) -> set[str]:
        probe_set = _behaviour._probes_for(code, "python")
        outcome = _behaviour.run(code, "python", probe_set, edit=True)
        assert outcome is not None
        return _behaviour.typed_features(outcome, probe_set)

    def test_programs_extracting_different_kinds_of_text_are_apart(self) -> None:
        assert VERSIONS != TAGS
        tags, versions = self.typed(TAGS), self.typed(VERSIONS)
        assert "2:typed.0.content.user" in tags  # "#release"
        assert "2:typed.2.content.user" in versions  # "v2.3.1"
        assert tags.isdisjoint(versions)
        assert similarity(sketch(TAGS), sketch(VERSIONS)) < 0.5

    def test_respellings_react_to_the_same_kinds(self) -> None:
        assert self.typed(TAGS) == self.typed(TAGS_LOOP)
        assert similarity(sketch(TAGS), sketch(TAGS_LOOP)) >= 0.9

    def test_typed_texts_are_fixed_and_leave_the_footprint_alone(self) -> None:
        probe = probes()[2]
        edits = _mutations.typed(probe)
        assert edits == _mutations.typed(probes()[2])
        assert len(edits) == len(_mutations.TYPED_TEXTS) * 4
        assert {op[1] for _, ops in edits for op in ops if op[0] == "set"} == {20, 12, 10}
        names = {name for name, _ in edits}
        assert all(name.startswith("typed.") for name in names)
        probe_set = _behaviour._probes_for(FAILED_COUNT, "python")
        outcome = _behaviour.run(FAILED_COUNT, "python", probe_set, edit=True)
        assert outcome is not None
        assert not any("typed." in f for f in _behaviour.footprint(outcome, probe_set))


UNDATED = """
history = context.get("conversation_history", [])
result = [r.get("call_id") for r in history if not r.get("timestamp")]
"""
UNDATED_ROWS = """
log = context.get("conversation_history") or []
if not log:
    result = []
else:
    found = []
    for item in log:
        if not item.get("timestamp"):
            found.append({"id": item.get("call_id"), "role": item.get("role")})
    result = found
"""
RB_FLAG_ARGS = """
history = context[:conversation_history] || []
history.select { |r| (r[:args] || []).any? { |a| a == true || a == false } }.map { |r| r[:call_id] }
"""
RB_FLAG_ARGS_LOOP = """
flagged = []
(context[:conversation_history] || []).each do |record|
  next if record[:method_name].to_s.empty?
  args = record[:args] || []
  flagged << [record[:call_id], record[:method_name]] if args.any? { |a| [true, false].include?(a) }
end
flagged
"""
NUMBERED_REPLIES = """
import re
history = context.get("conversation_history", [])
result = [r.get("call_id") for r in history if r.get("role") == "assistant"
          and isinstance(r.get("content"), str) and re.search(r"^\\s*\\d+\\.\\s", r["content"], re.M)]
"""
LINKED_REPLIES = """
import re
history = context.get("conversation_history", [])
result = [r.get("call_id") for r in history if r.get("role") == "assistant"
          and isinstance(r.get("content"), str) and re.search(r"\\[[^]]+\\]\\([^)]+\\)", r["content"])]
"""
STARTS_WITH_BANG = """
history = context["conversation_history"]
result = [r["call_id"] for r in history if r["content"].startswith("!")]
"""


class TestKindsV15:
    """Scheme v15: a field without a value or of another type; Markdown texts; typed texts name their record."""

    def test_each_picked_record_gets_every_kind(self) -> None:
        names = {name for name, _ in _mutations.triggers(probes()[2])}
        for label in ("fail", "ok", "user"):
            for field in ("timestamp", "role", "speaker", "content", "method", "goal", "call_id"):
                assert f"kind.none.{field}.{label}" in names
                assert f"kind.blank.{field}.{label}" in names
            for kind in ("list", "dict", "number"):
                assert f"kind.content.{kind}.{label}" in names
            for kind in ("flag", "off", "number", "none", "four", "six"):
                assert f"kind.args.{kind}.{label}" in names

    def test_a_program_looking_for_a_record_without_a_time_is_told_by_it(self) -> None:
        found = looked_for(UNDATED)
        assert {"t:2:kind.none.timestamp.ok", "t:2:kind.none.timestamp.ok@"} <= found
        assert "t:2:kind.blank.timestamp.user@" in found
        assert not any(".role." in f or ".content." in f for f in found)

    def test_respellings_with_a_field_more_are_one_program(self) -> None:
        assert looked_for(UNDATED) == looked_for(UNDATED_ROWS)
        assert similarity(sketch(UNDATED), sketch(UNDATED_ROWS)) == 1.0

    @needs_ruby
    def test_ruby_flags_among_the_arguments_are_a_trigger(self) -> None:
        found = looked_for(RB_FLAG_ARGS, "ruby")
        assert {"t:2:kind.args.flag.ok@", "t:2:kind.args.off.ok@"} <= found
        assert "t:2:kind.args.number.ok" not in found
        assert similarity(sketch(RB_FLAG_ARGS, "ruby"), sketch(RB_FLAG_ARGS_LOOP, "ruby")) == 1.0

    def test_a_numbered_list_and_a_link_are_different_searches(self) -> None:
        assert LINKED_REPLIES != NUMBERED_REPLIES
        numbered, linked = looked_for(NUMBERED_REPLIES), looked_for(LINKED_REPLIES)
        assert "t:2:typed.48.content.ok@" in numbered and "t:2:typed.48.content.ok" not in linked
        assert "t:2:typed.49.content.ok@" in linked and "t:2:typed.49.content.ok" not in numbered
        assert similarity(sketch(NUMBERED_REPLIES), sketch(LINKED_REPLIES)) < 0.9

    def test_failing_on_a_missing_field_is_not_a_feature(self) -> None:
        probe_set = _behaviour._probes_for(STARTS_WITH_BANG, "python", triggered=True)
        outcome = _behaviour.run(STARTS_WITH_BANG, "python", probe_set, edit=True)
        assert outcome is not None
        marks = dict(((p, name), mark) for p, name, mark in _behaviour._marked(outcome, probe_set))
        assert marks[(2, "kind.none.content.ok")] == "x"  # it fails on a content without a value
        found = looked_for(STARTS_WITH_BANG)
        assert not any(f.startswith("t:2:kind.none.content") for f in found)


# -- scheme v16: a second match planted; a footprint needs five edits ---------------------------

EXIT_CODES = """
import re
result = []
for r in conversation_history:
    if r.get("role") == "user" and isinstance(r.get("content"), str):
        result += re.findall(r"exit code (\\d+)", r["content"])
"""
EXIT_CODES_LOOP = """
import re
history = context.get("conversation_history") or []
codes = []
for record in history:
    text = record.get("content")
    if record.get("role") != "user" or not isinstance(text, str):
        continue
    for code in re.findall(r"exit code (\\d+)", text):
        codes.append(code)
result = {"codes": codes}
"""
LATEST_EXIT_CODE = """
import re
result = None
for r in conversation_history:
    if r.get("role") == "user" and isinstance(r.get("content"), str):
        found = re.findall(r"exit code (\\d+)", r["content"])
        if found:
            result = found[-1]
"""
BRACKET_TAGS = """
import re
result = []
for r in conversation_history:
    if r.get("role") == "user" and isinstance(r.get("content"), str):
        result += re.findall(r"\\[([a-z]+)\\]", r["content"])
"""
LOCAL_PORTS = """
import re
result = []
for r in conversation_history:
    if r.get("role") == "user" and isinstance(r.get("content"), str):
        result += re.findall(r"localhost:(\\d{2,5})", r["content"])
"""
FAILED_METHODS = """
result = [r["method_name"] for r in conversation_history
          if not (r.get("outcome_summary") or {}).get("ok", True)]
"""


class TestSchemeV16:
    """Scheme v16: what a program searches for is planted twice; a footprint needs five edits."""

    @pytest.mark.parametrize(
        ("pattern", "first", "second"),
        [
            (r"exit code (\d+)", "exit code 4", "exit code 7"),
            (r"\[([a-z]+)\]", "[a]", "[b]"),
            (r"localhost:(\d{2,5})", "localhost:44", "localhost:77"),
            ("TODO", "TODO", "TODO"),  # a fragment has no class to vary: itself again
            (r"(?!7)\d", "4", None),  # the other example is not found by the pattern: none
        ],
    )
    def test_the_second_example_is_another_match(
        self, pattern: str, first: str, second: str | None
    ) -> None:
        assert regex_example(pattern) == first
        assert _second_example(pattern, first) == second
        if second is not None:
            assert re.search(pattern, second)

    def test_probe_two_holds_the_second_match_earlier(self) -> None:
        history = probes(texts=[(r"exit code (\d+)", "exit code 4")])[2]["history"]
        assert history[11]["content"].startswith("exit code 7 ")
        assert history[13]["content"].startswith("exit code 4 ")
        assert history[12]["outcome_summary"]["summary"].endswith(" exit code 7")
        assert history[14]["outcome_summary"]["summary"].endswith(" exit code 4")
        assert history[17]["error"].endswith(" exit code 7")
        assert history[18]["outcome_summary"]["error_message"].endswith(" exit code 4")
        assert [r["role"] for r in (history[11], history[13])] == ["user", "user"]
        assert not history[17]["outcome_summary"]["ok"] and history[12]["outcome_summary"]["ok"]

    def test_every_match_and_the_latest_are_apart_respellings_together(self) -> None:
        assert similarity(sketch(EXIT_CODES), sketch(EXIT_CODES_LOOP)) == 1.0
        assert similarity(sketch(EXIT_CODES), sketch(LATEST_EXIT_CODE)) < 0.9

    def test_a_footprint_of_few_edits_is_left_out(self) -> None:
        # Searches of the planted records: only the edits of those few records
        # change their answers, so they have no footprint (v15 gave LOCAL_PORTS one).
        tags, ports = sketch(BRACKET_TAGS), sketch(LOCAL_PORTS)
        assert len(tags) == len(ports) == 512  # answers only
        assert similarity(tags, ports) < 0.9
        assert len(sketch(FAILED_METHODS)) == 1024  # many edits change it: a footprint

    def test_the_footprint_counts_the_edits_that_change_the_answer(self) -> None:
        probe_set = _behaviour._probes_for(BRACKET_TAGS, "python")
        again = _behaviour.run(BRACKET_TAGS, "python", probe_set, edit=True)
        assert again is not None
        changing = [
            name
            for _, name, mark in _behaviour._marked(again, probe_set)
            if mark in _behaviour._MARKS and not name.startswith("typed.")
        ]
        assert 0 < len(changing) < _behaviour.FOOTPRINT_MIN_EDITS
        assert _behaviour.footprint(again, probe_set) == set()
