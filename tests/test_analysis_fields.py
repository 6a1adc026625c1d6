"""Fields read from history records and the static depth bound, in both analysers."""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recurscope.cli.detector_eval import add_command
from recurscope.instrumentation.analysis import ALL_FIELDS, CodeAnalysis, analyze_code, clear_cache
from recurscope.instrumentation.analysis._model import OUTCOME_KEYS, RECORD_TOP_FIELDS
from recurscope.instrumentation.analysis._sketch import RECORD_FIELDS
from recurscope.instrumentation.analysis.evaluate import CorpusError, evaluate, load_labels

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "data" / "detector-corpus"
OS = "outcome_summary"

# pytest re-enables DeprecationWarnings inside tests, overriding the analyser's own
# filter for compile warnings of generated code ("invalid escape sequence").
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _reference_dir() -> Path | None:
    for candidate in (REPO.parent / "shared" / "reference", Path("/work/shared/reference")):
        if (candidate / "recurgent" / "logs").is_dir():
            return candidate
    return None


REFERENCE = _reference_dir()


def fields(code: str, language: str = "python", names: tuple[str, ...] = ()) -> set[str]:
    return set(analyze_code(code, language, history_names=names).fields_read)


def depth(code: str, language: str = "python") -> int | None:
    return analyze_code(code, language).static_depth


PY_H = 'h = context["conversation_history"]\n'
RB_H = "h = context[:conversation_history] || []\n"


# -- vocabulary ---------------------------------------------------------------------------------


def test_the_vocabulary_is_the_sketch_schema() -> None:
    """ALL_FIELDS is the sketch's record fields, with outcome_summary's keys under it."""
    assert RECORD_TOP_FIELDS | OUTCOME_KEYS == RECORD_FIELDS
    assert {f"{OS}.{k}" for k in OUTCOME_KEYS} | RECORD_TOP_FIELDS == ALL_FIELDS
    assert "ok" not in ALL_FIELDS  # a key of outcome_summary is named only under it


def test_existing_constructors_keep_working() -> None:
    """CodeAnalysis built without the new fields gets empty fields and no depth."""
    record = CodeAnalysis("python", "ast", False, frozenset(), None, False, None)
    assert (record.fields_read, record.static_depth) == (frozenset(), None)


# -- Python spellings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('for r in h:\n    print(r["speaker"])', {"speaker"}),
        ('x = [r.get("method_name") for r in h]', {"method_name"}),
        ('x = [r.get("args", ()) for r in h]', {"args"}),
        ('x = [(r.get("outcome_summary") or {}).get("ok") for r in h]', {OS, f"{OS}.ok"}),
        ('x = [r.get("outcome_summary", {}).get("status") for r in h]', {OS, f"{OS}.status"}),
        ('x = h[-1]["outcome_summary"]["error_type"]', {OS, f"{OS}.error_type"}),
        ('for r in h:\n    s = r["outcome_summary"]\n    print(s["ok"], s.get("summary"))',
         {OS, f"{OS}.ok", f"{OS}.summary"}),
        ('import operator\nx = sorted(h, key=operator.itemgetter("timestamp"))', {"timestamp"}),
        ('from operator import itemgetter\nx = list(map(itemgetter("role", "content"), h))',
         {"role", "content"}),
        ('x = max(h, key=lambda r: r["timestamp"])["call_id"]', {"timestamp", "call_id"}),
        ('x = next(m for m in h if m["role"] == "user")["content"]', {"role", "content"}),
        ('x = next(iter(h))["name"]', {"name"}),
        ('for i, m in enumerate(h[-3:]):\n    print(i, m["parts"])', {"parts"}),
        ('x = [m["tool_calls"] for m in h if m["depth"] > 0]', {"tool_calls", "depth"}),
        ('K = "goal"\nx = [r[K] for r in h]', {"goal"}),
        ('for r in h:\n    match r:\n        case {"speaker": "u", "outcome_summary": {"ok": True}}:'
         "\n            pass", {"speaker", OS, f"{OS}.ok"}),
        ('def need(rec):\n    return rec["need"]\nx = [need(r) for r in h]', {"need"}),
        ('x = list(filter(lambda r: r["parent_call_id"], h))', {"parent_call_id"}),
    ],
)  # fmt: skip
def test_python_field_spellings(body: str, expected: set[str]) -> None:
    """Each Python spelling of a record field read names the field."""
    assert fields(PY_H + body) == expected


def test_python_attribute_access_is_not_a_field_read() -> None:
    """Records are dicts (FrozenRecord): r.speaker reads no field and is not counted."""
    assert fields(PY_H + "x = [r.speaker for r in h]\ny = h[-1].outcome_summary") == set()


def test_python_output_keys_and_other_data_are_not_reads() -> None:
    """Keys written into output dicts, and keys of other data, are not record fields read."""
    code = (
        PY_H
        + 'out = {"speaker": 1, "role": len(h)}\nout["content"] = 2\n'
        + 'cfg = {"timestamp": 3}\nx = cfg["timestamp"], kwargs.get("args")\n'
        + 'y = [{"method_name": r["call_id"]} for r in h]'
    )
    assert fields(code) == {"call_id"}


def test_python_unknown_keys_are_never_named() -> None:
    """Keys outside the schema vanish; outcome_summary's unknown keys keep only outcome_summary."""
    code = (
        PY_H + 'x = [(r["duration_ms"], r["secret_token"], r["outcome_summary"]["x"]) for r in h]'
    )
    assert fields(code) == {OS}


def test_python_keys_inside_other_fields_are_not_named() -> None:
    """A key of args or a tool call is not a record field (only outcome_summary's are)."""
    code = (
        PY_H + 'x = [r["args"]["speaker"] for r in h]\ny = [t["name"] for t in h[-1]["tool_calls"]]'
    )
    assert fields(code) == {"args", "tool_calls"}


def test_python_aliases_of_the_history() -> None:
    """Records reached through aliases, copies and defs still name their fields."""
    code = (
        "hist = context.get('conversation_history') or []\nrecent = list(hist)[-4:]\n"
        "def last_of(rs):\n    return rs[-1]\nx = last_of(recent)['speaker']"
    )
    assert fields(code) == {"speaker"}


# -- Ruby spellings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("h.each { |r| puts r[:speaker] }", {"speaker"}),
        ('h.map { |r| r["method_name"] }', {"method_name"}),
        ("h.map { |r| r.fetch(:args) }", {"args"}),
        ('h.map { |r| r.fetch("kwargs", nil) }', {"kwargs"}),
        ("h.map { |r| r.dig(:outcome_summary, :ok) }", {OS, f"{OS}.ok"}),
        ('h.map { |r| r.dig("outcome_summary", "value_class") }', {OS, f"{OS}.value_class"}),
        ("h.map { |r| r[:outcome_summary][:error_message] }", {OS, f"{OS}.error_message"}),
        ("h.map { |r| (r[:outcome_summary] || {})[:content_ref] }", {OS, f"{OS}.content_ref"}),
        ("h.each do |r|\n  s = r[:outcome_summary] || {}\n  puts s[:ok], s.fetch(:status)\nend",
         {OS, f"{OS}.ok", f"{OS}.status"}),
        ("x = h.last[:timestamp]", {"timestamp"}),
        ("x = h.first&.dig(:call_id)", {"call_id"}),
        ('x = h.find { |m| m[:role] == "user" }[:content]', {"role", "content"}),
        ('x = h.detect { |m| m[:role] == "tool" }&.fetch(:name)', {"role", "name"}),
        ("x = h.max_by { |m| m[:depth] }[:goal]", {"depth", "goal"}),
        ("x = h.group_by { |m| m[:speaker] }.map { |k, ms| ms.last[:parts] }", {"speaker", "parts"}),
        ("x = h.each_with_object({}) { |m, acc| acc[m[:need]] = 1 }", {"need"}),
        ("x = h.map { |m| m.values_at(:speaker, :args, :secret) }", {"speaker", "args"}),
        ("x = context.dig(:conversation_history, -1, :parent_call_id)", {"parent_call_id"}),
        ("x = h.dig(-1, :outcome_summary, :summary)", {OS, f"{OS}.summary"}),
    ],
)  # fmt: skip
def test_ruby_field_spellings(body: str, expected: set[str]) -> None:
    """Each Ruby spelling of a record field read names the field."""
    assert fields(RB_H + body, "ruby") == expected


def test_ruby_method_style_access_is_not_a_field_read() -> None:
    """Records are hashes: r.speaker and map(&:speaker) read no field."""
    assert fields(RB_H + "x = h.map { |r| r.speaker }\ny = h.map(&:method_name)", "ruby") == set()


def test_ruby_output_keys_are_not_reads() -> None:
    """Labels and keys of output hashes, and keys written, are not record fields read."""
    code = (
        RB_H + 'out = { speaker: 1, "role" => h.size, :content => 2 }\nout[:timestamp] = 3\n'
        "y = h.map { |r| { method_name: r[:call_id] } }\nz = kwargs[:args]"
    )
    assert fields(code, "ruby") == {"call_id"}


def test_ruby_unknown_keys_are_never_named() -> None:
    """Keys outside the schema vanish; outcome_summary's unknown keys keep only outcome_summary."""
    code = RB_H + "x = h.map { |r| [r[:duration_ms], r.dig(:outcome_summary, :secret)] }"
    assert fields(code, "ruby") == {OS}


def test_ruby_aliases_of_the_history() -> None:
    """Records reached through aliases and a def parameter still name their fields."""
    code = (
        "def fmt(records)\n  records.map { |r| r[:speaker] }\nend\n"
        "history = context[:conversation_history] || []\nrecent = history.last(3)\n"
        "result = fmt(recent)"
    )
    assert fields(code, "ruby") == {"speaker"}


def test_no_history_no_fields() -> None:
    """A program that does not read the history has no fields and no depth, whatever it indexes."""
    for code, language in [
        ('x = [r["speaker"] for r in other][-3:]', "python"),
        ("x = other.last(3).map { |r| r[:speaker] }", "ruby"),
    ]:
        result = analyze_code(code, language)
        assert (result.accessed, result.fields_read, result.static_depth) == (
            False,
            frozenset(),
            None,
        )


# -- static depth --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("x = h[-5:]", 5),
        ("x = h[-1]", 1),
        ("x = h[-3]", 3),
        ("x = h[-5:-1]", 5),
        ("x = [r['speaker'] for r in h[-4:]]", 4),
        ("recent = h[-5:]\nfor r in recent:\n    print(r)", 5),
        ("a = h[-2:]\nb = h[-6]\nc = len(h)", 6),
        ("x = h[len(h) - 3:]", 3),
        ("x = h[max(0, len(h) - 7):]", 7),
        ("x = h.copy()[-3:]\ny = list(h)[-2]", 3),
        ("x = h[::-1][:4]", 4),
        ("x = list(reversed(h))[0]", 1),
        ("x = next(reversed(h))", 1),
        ("x = h[-1] if h else None\nn = len(h)", 1),
        ("if not h:\n    x = None\nelse:\n    x = h[-2:]", 2),
        ("def tail(rs):\n    return rs[-3:]\nx = tail(h)", 3),
        ("x = h[:5]", None),
        ("x = h[0]", None),
        ("x = h[1:]", None),
        ("n = 5\nx = h[-n:]", None),
        ("x = h[-5:]\nfor r in h:\n    pass", None),
        ("x = sorted(h)[-1]", None),
        ("x = len(h)", None),
        ("x = 'none' if not h else 'some'", None),
        ("def tail(rs, n):\n    return rs[-n:]\nx = tail(h, 3)", None),
        ("x = [r for r in reversed(h)][:3]", None),
    ],
)  # fmt: skip
def test_python_static_depth(body: str, expected: int | None) -> None:
    """Literal tail bounds give the depth; any other read of records gives None."""
    assert depth(PY_H + body) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("x = h.last", 1),
        ("x = h.last(4)", 4),
        ("x = h[-2..]", 2),
        ("x = h[-2..-1]", 2),
        ("x = h[-3...]", 3),
        ("x = h[-1]", 1),
        ("x = h[-5, 5]", 5),
        ("recent = h.last(5)\nrecent.each { |r| puts r }", 5),
        ("x = h.last(2)\ny = h[-6]\nz = h.size", 6),
        ("x = h.reverse.first(3)", 3),
        ("g = h.dup\nx = g.last(2)", 2),
        ("x = h.reverse_each.first", 1),
        ("x = h.empty? ? nil : h.last", 1),
        ("x = context[:conversation_history].last(8)", 8),
        ("x = (context[:conversation_history] || []).last(2)", 2),
        ("x = context.dig(:conversation_history, -1)", 1),
        ("def tail(rs)\n  rs.last(3)\nend\nx = tail(h)", 3),
        ("x = h.first(3)", None),
        ("x = h.first", None),
        ("x = h[0]", None),
        ("x = h[0..2]", None),
        ("n = 4\nx = h.last(n)", None),
        ("x = h.last(2)\nh.each { |r| puts r }", None),
        ("x = h.reverse.find { |r| r[:ok] }", None),
        ("x = h.count { |r| r[:speaker] == 'u' }", None),
        ("x = h.length", None),
        ("x = h", None),
    ],
)  # fmt: skip
def test_ruby_static_depth(body: str, expected: int | None) -> None:
    """Literal tail bounds give the depth; any other read of records gives None."""
    assert depth(RB_H + body, "ruby") == expected


def test_depth_needs_every_read_of_every_name() -> None:
    """An injected history rebound to something else is not followed: no depth is claimed."""
    code = "recent = conversation_history[-3:]\nconversation_history = load()\nx = conversation_history"
    assert analyze_code(code).static_depth is None


def test_answers_are_cached_with_their_fields() -> None:
    """A repeat call returns the remembered record, fields and depth included."""
    clear_cache()
    code = PY_H + 'x = [r["speaker"] for r in h[-2:]]'
    first, again = analyze_code(code), analyze_code(code)
    assert first is again
    assert (again.fields_read, again.static_depth) == (frozenset({"speaker"}), 2)


# -- properties ------------------------------------------------------------------------------------

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SNIPPETS = [
    PY_H, RB_H, 'r["speaker"]', "r[:outcome_summary][:ok]", ".get(", ".dig(", "[-3:]", ".last(2)",
    "for r in h:\n    ", "h.each { |r| ", " }", "\n", "(", ")", "[", "]", "-", "1", "ok", "'x'",
    "outcome_summary", "itemgetter(", "lambda r: ", " or {}", " || {}", "reversed(", ".reverse",
]  # fmt: skip


def _assert_fields_consistent(result: CodeAnalysis) -> None:
    assert result.fields_read <= ALL_FIELDS
    if not result.accessed:
        assert result.fields_read == frozenset() and result.static_depth is None
    if any(f.startswith(f"{OS}.") for f in result.fields_read):
        assert OS in result.fields_read
    assert result.static_depth is None or result.static_depth >= 1


@SETTINGS
@given(code=st.text(), language=st.sampled_from(["python", "ruby", "go"]))
def test_arbitrary_text_never_raises(code: str, language: str) -> None:
    """Any text gives fields within the vocabulary (empty when not accessed), never an error."""
    result = analyze_code(code, language)
    _assert_fields_consistent(result)
    assert not (result.error or "").startswith("InternalError"), result.error


@SETTINGS
@given(
    parts=st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=25),
    language=st.sampled_from(["python", "ruby"]),
)
def test_history_shaped_text_never_raises(parts: list[str], language: str) -> None:
    """Fragments of history-reading code, glued at random, keep the invariants."""
    result = analyze_code("".join(parts), language)
    _assert_fields_consistent(result)
    assert not (result.error or "").startswith("InternalError"), result.error


def _corpus_programs() -> list[tuple[str, str]]:
    out = [("python", p.read_text()) for p in sorted((CORPUS / "python").glob("*.py"))]
    return out + [("ruby", p.read_text()) for p in sorted((CORPUS / "ruby").glob("*.rb"))]


@SETTINGS
@given(
    program=st.sampled_from(_corpus_programs()),
    cut=st.tuples(st.integers(0, 2000), st.integers(0, 40)),
    insert=st.sampled_from(SNIPPETS),
)
def test_edited_corpus_programs_keep_the_invariants(
    program: tuple[str, str], cut: tuple[int, int], insert: str
) -> None:
    """A corpus program with a span replaced by a fragment still analyses consistently."""
    language, code = program
    start = cut[0] % (len(code) + 1)
    result = analyze_code(code[:start] + insert + code[start + cut[1] :], language)
    _assert_fields_consistent(result)
    assert not (result.error or "").startswith("InternalError"), result.error


# -- labelled corpus -----------------------------------------------------------------------------


def test_every_accessed_entry_has_field_and_depth_labels() -> None:
    """Each program labelled as reading the history also labels fields and static depth."""
    for entry in load_labels(CORPUS):
        assert (entry.fields is not None) == entry.accessed, entry.id
        assert entry.depth_labelled == entry.accessed, entry.id


@pytest.mark.skipif(REFERENCE is None, reason="reference logs absent")
def test_the_figures_docs_quote() -> None:
    """docs/detector.md ("Fields read and static depth") quotes these; change them together."""
    report = evaluate(CORPUS, REFERENCE)
    assert not report.skipped
    measured = {
        scope: (
            report.field_counts(scope).tp,
            report.field_counts(scope).fp,
            report.field_counts(scope).fn,
            report.depth_counts(scope).correct,
            report.depth_counts(scope).total,
        )
        for scope in ("overall", "python", "ruby")
    }
    assert measured == {
        "overall": (192, 0, 1, 96, 96),
        "python": (84, 0, 1, 58, 58),
        "ruby": (108, 0, 0, 38, 38),
    }
    docs = (REPO / "docs" / "detector.md").read_text(encoding="utf-8")
    for row in (
        "| overall | 96 | 1.00 | 0.99 | 192 / 0 / 1 | 1.00 | 96 / 96 | 10 / 10 | 86 / 86 |",
        "| Python | 58 | 1.00 | 0.99 | 84 / 0 / 1 | 1.00 | 58 / 58 | 7 / 7 | 51 / 51 |",
        "| Ruby | 38 | 1.00 | 1.00 | 108 / 0 / 0 | 1.00 | 38 / 38 | 3 / 3 | 35 / 35 |",
    ):
        assert row in docs
    real = [e for e in load_labels(CORPUS) if e.source.startswith("reference:") and e.accessed]
    assert sum(len(e.fields or ()) for e in real) == 61 and len(real) == 9
    assert not {d.id for d in report.field_disagreements} & {e.id for e in real}
    assert "The 9 real programs alone: 61 / 0 / 0 field pairs and 9 / 9 depths" in docs
    assert (
        "| overall | 47 | 1.00 | 1.00 | 97 / 0 / 0 | 1.00 | 47 / 47 | 23 / 23 | 24 / 24 |" in docs
    )


def test_the_held_out_figures_docs_quote() -> None:
    """The held-out set (written blind, pinned by hash) scores what docs/detector.md says."""
    heldout = CORPUS / "heldout-fields" / "labels.json"
    digest = hashlib.sha256(heldout.read_bytes()).hexdigest()
    assert digest == "1ec0971b0e4a0b8a74715b791c81f4c5676fda7e338a51ace9033070181e0a5a"
    report = evaluate(CORPUS, REFERENCE, labels=heldout)
    measured = {
        scope: (
            report.field_counts(scope).tp,
            report.field_counts(scope).fp,
            report.field_counts(scope).fn,
            report.depth_counts(scope).correct,
            report.depth_counts(scope).total,
        )
        for scope in ("overall", "python", "ruby")
    }
    assert measured == {
        "overall": (97, 0, 0, 47, 47),
        "python": (51, 0, 0, 24, 24),
        "ruby": (46, 0, 0, 23, 23),
    }


# -- a separate labels file (the held-out format) ----------------------------------------------


def _fields_only_set(root: Path, corpus_program: str) -> Path:
    """A labels folder in the held-out format: fields and depth only, one own file, one shared."""
    own = root / "python" / "own.py"
    own.parent.mkdir(parents=True)
    own.write_text(PY_H + 'x = [r["role"] for r in h[-3:]]\n', encoding="utf-8")
    shared = (CORPUS / corpus_program).read_text(encoding="utf-8")
    entries = [
        {
            "id": "own",
            "language": "python",
            "source": "file:python/own.py",
            "code_sha256": hashlib.sha256(own.read_bytes()).hexdigest(),
            "fields": ["role"],
            "static_depth": 3,
            "note": "written for the test",
        },
        {
            "id": "shared",
            "language": "python",
            "source": f"file:{corpus_program}",
            "code_sha256": hashlib.sha256(shared.encode()).hexdigest(),
            "fields": ["method_name", "speaker"],
            "static_depth": None,
            "note": "read from the main corpus",
        },
    ]
    (root / "labels.json").write_text(json.dumps({"entries": entries}), encoding="utf-8")
    return root


def test_a_fields_only_labels_file_is_scored_on_fields_and_depth(tmp_path: Path) -> None:
    """Entries without accessed/ops score fields and depth only; sources resolve to either folder."""
    labels = _fields_only_set(tmp_path / "heldout", "python/summarize_lines_join.py")
    report = evaluate(CORPUS, None, labels=labels)
    assert report.evaluated == 2 and not report.skipped
    counts = report.field_counts()
    assert (counts.tp, counts.fp, counts.fn) == (3, 1, 0)  # timestamp read, not labelled
    assert (report.depth_counts().correct, report.depth_counts().total) == (2, 2)
    assert report.counts("ours", "accessed") == report.counts("baseline", "accessed")
    assert report.counts("ours", "accessed").tp == 0  # accessed is not scored for these
    assert [d.extra_fields for d in report.field_disagreements] == [("timestamp",)]
    assert report.labels_path.endswith("labels.json")


def test_the_command_takes_a_labels_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """recurscope detector-eval --labels PATH scores that file and prints the fields section."""
    labels = _fields_only_set(tmp_path / "set", "python/summarize_lines_join.py")
    parser = argparse.ArgumentParser(prog="recurscope")
    add_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["detector-eval", "--corpus", str(CORPUS), "--labels", str(labels / "labels.json")]
    )
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "### Fields read and static depth (ours)" in out
    assert "| overall | 1.00 | 0.75 |" not in out and "| overall | 0.75 | 1.00 |" in out
    args = parser.parse_args(["detector-eval", "--labels", str(labels), "--format", "json"])
    assert args.func(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["fields_read"]["overall"]["fp"] == 1 and doc["static_depth"]["overall"]["total"] == 2
    args = parser.parse_args(["detector-eval", "--labels", str(tmp_path / "absent")])
    assert args.func(args) == 1
    assert "--labels" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fields": ["ok"]}, "unknown fields"),
        ({"fields": ["speaker", "args"]}, "sorted"),
        ({"fields": [f"{OS}.ok"]}, "without outcome_summary"),
        ({"static_depth": 0}, "static_depth"),
        ({"static_depth": "5"}, "static_depth"),
        ({"accessed": False, "ops": [], "fields": ["speaker"]}, "does not access"),
    ],
)
def test_malformed_field_labels_raise(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    """Field and depth labels are checked like op labels, with a message saying what to fix."""
    entry = {"id": "a", "language": "python", "source": "file:x.py", "note": "n"}
    entry.update(change)
    (tmp_path / "labels.json").write_text(json.dumps([entry]), encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        load_labels(tmp_path)
