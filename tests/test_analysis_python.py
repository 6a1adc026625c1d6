"""Python analyser: history sources, data flow, op classification, hard negatives."""

from __future__ import annotations

import textwrap

import pytest

from recurscope.instrumentation.analysis import analyze_code


def ops_of(code: str, **kwargs: object) -> frozenset[str] | None:
    """The ops found, or None when the history is not accessed."""
    result = analyze_code(textwrap.dedent(code), "python", **kwargs)  # type: ignore[arg-type]
    assert result.method == "ast", result.error
    return result.ops if result.accessed else None


# -- sources -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        'context["conversation_history"]',
        "context['conversation_history'] or []",
        'context.get("conversation_history", [])',
        'context.get("conversation_history") or []',
        "context.conversation_history",
        'getattr(context, "conversation_history", [])',
        'self_ctx["conversation_history"]',
        "conversation_history",
    ],
)
def test_every_history_source_is_access(source: str) -> None:
    """Each spelling of the history source counts as access and carries ops through an alias."""
    assert ops_of(f"h = {source}\nresult = len(h)") == {"count"}


def test_history_key_through_a_string_constant() -> None:
    """context[KEY] with KEY bound to the history key is a source."""
    assert ops_of('KEY = "conversation_history"\nh = context[KEY]\nresult = h[0]') == {"index"}


def test_custom_history_name_is_a_source_only_when_passed() -> None:
    """A bare name becomes history only when the host lists it in history_names."""
    code = "result = [m for m in history if m['speaker'] == 'user']"
    assert ops_of(code) is None
    assert ops_of(code, history_names=("history",)) == {"filter"}


def test_custom_name_rebound_before_reading_is_local() -> None:
    """A host name the program assigns before reading it is a local, not the history."""
    code = "history = [1, 2, 3]\nresult = history[-2:]"
    assert ops_of(code, history_names=("history",)) is None


def test_injected_name_is_read_before_rebinding() -> None:
    """``conversation_history = conversation_history[-3:]`` reads the injected history first."""
    assert ops_of("conversation_history = conversation_history[-3:]") == {"slice", "peek"}


# -- hard negatives ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "# conversation_history is not needed\nresult = sorted(args)[:3]",
        'result = "conversation_history"',
        'print(f"see conversation_history for details: {len(args)}")',
        'def f():\n    """Reads nothing from conversation_history."""\n    return 1\nresult = f()',
        "history = []\nhistory.append(1)\nresult = history[-5:]",
        'h = context["other_key"]\nresult = [m for m in h if m["x"]]',
        'payload = {"conversation_history": []}\nresult = payload',
        "def render(conversation_history):\n    return len(conversation_history)\nr = render([1])",
        'n = context.get("conversation_history_size", 0)\nresult = n > 3',
        'context["conversation_history"] = []',
    ],
)
def test_hard_negatives_are_not_access(code: str) -> None:
    """Mentions, other keys, local lists and writes are not reads of the history."""
    assert ops_of(code) is None


def test_same_operations_on_other_data_are_not_tagged() -> None:
    """Ops on unrelated data next to real history access are not attributed to history."""
    code = """
    h = context["conversation_history"]
    orders = context["orders"]
    big = sorted([o for o in orders if o["total"] > 10], key=len)
    text = "\\n".join(str(o) for o in big)
    result = (len(h), text)
    """
    assert ops_of(code) == {"count"}


def test_loop_variable_reused_for_other_data_is_not_a_record() -> None:
    """Rebinding a loop variable to other data ends its life as a history record."""
    code = """
    for m in context["conversation_history"]:
        print(m)
    for m in context["orders"]:
        if "x" in m["note"]:
            print(m)
    """
    assert ops_of(code) == {"iterate"}


# -- ops ----------------------------------------------------------------------------------

OP_CASES = [
    ("result = [m['args'] for m in h]", {"map"}),
    ("result = [m for m in h if m['speaker'] == 'user']", {"filter"}),
    ("result = h[2:7]", {"slice"}),
    ("result = h[:3]", {"slice", "peek"}),
    ("result = h[-5:]", {"slice", "peek"}),
    ("result = h[len(h) - 5:]", {"slice", "peek", "count"}),
    ("result = h[1:]", {"slice"}),
    ("result = h[:-1]", {"slice"}),
    ("result = h[::-1]", set()),
    ("result = len(h)", {"count"}),
    ("result = sum(1 for m in h)", {"count"}),
    ("result = sum(1 for m in h if m['ok'])", {"count", "filter"}),
    ("result = h[-1]", {"index"}),
    ("result = next(m for m in h if m['ok'])", {"find"}),
    ("result = any('x' in m['args'] for m in h)", {"find", "grep"}),
    ("result = sorted(h, key=lambda m: m['timestamp'])", {"sort"}),
    ("h2 = list(h)\nh2.sort(key=lambda m: m['duration_ms'])", {"sort"}),
    ("result = max(h, key=lambda m: m['duration_ms'])", {"sort"}),
    ("result = list(reversed(h))", set()),
    ("result = list(filter(lambda m: m['ok'], h))", {"filter"}),
    ("result = list(map(lambda m: m['call_id'], h))", {"map"}),
    ("import itertools\nresult = list(itertools.islice(h, 4))", {"slice", "peek"}),
    ("import itertools\nresult = list(itertools.islice(h, 2, 6))", {"slice"}),
    (
        "from collections import Counter\nresult = Counter(m['speaker'] for m in h)",
        {"group", "map"},
    ),
    (
        "from itertools import groupby\n"
        "result = [(k, len(list(g))) for k, g in groupby(h, key=lambda m: m['speaker'])]",
        {"group", "count", "map"},
    ),
    (
        "import re\nresult = [m for m in h if re.search('err', m['outcome_summary'])]",
        {"filter", "grep"},
    ),
    ("result = [m for m in h if m['method_name'].startswith('get_')]", {"filter", "grep"}),
    ("result = [m for m in h if 'refund' in str(m['args']).lower()]", {"filter", "grep"}),
    ("result = [m for m in h if m['speaker'] in ('user', 'tool')]", {"filter"}),
    ("result = [m for m in h if 'speaker' in m]", {"filter"}),
    ("result = '\\n'.join(m['method_name'] for m in h)", {"map", "summarize"}),
    (
        "from functools import reduce\nresult = reduce(lambda a, m: a + m['method_name'], h, '')",
        {"summarize"},
    ),
    ("result = {m['call_id']: m for m in h}", {"map"}),
    ("result = [m for m in h]", set()),
    ("result = h", set()),
    ("result = bool(h)", set()),
]


@pytest.mark.parametrize(("snippet", "expected"), OP_CASES)
def test_op_classification(snippet: str, expected: set[str]) -> None:
    """Each documented Python form maps to its documented ops."""
    assert ops_of('h = context["conversation_history"]\n' + snippet) == expected


def test_loop_forms() -> None:
    """Loops: conditional append is filter, transformed append map, break find, plain iterate."""
    head = 'h = context["conversation_history"]\nout = []\n'
    assert ops_of(head + "for m in h:\n    if m['ok']:\n        out.append(m)") == {"filter"}
    assert ops_of(head + "for m in h:\n    out.append(m['call_id'])") == {"map"}
    assert ops_of(
        head + "for m in h:\n    if not m['ok']:\n        continue\n    out.append(m)"
    ) == {"filter"}
    assert ops_of(head + "for m in h:\n    if m['ok']:\n        break") == {"find"}
    assert ops_of(head + "for m in h:\n    print(m)") == {"iterate"}
    assert ops_of(head + "n = 0\nfor m in h:\n    if m['ok']:\n        n += 1") == {
        "count",
        "filter",
    }


def test_partition_forms() -> None:
    """if/else appends, complementary comprehensions and filter/filterfalse are partitions."""
    head = 'h = context["conversation_history"]\n'
    loop = (
        "a, b = [], []\nfor m in h:\n    if m['ok']:\n        a.append(m)\n"
        "    else:\n        b.append(m)"
    )
    assert ops_of(head + loop) == {"partition"}
    comps = "a = [m for m in h if m['ok']]\nb = [m for m in h if not m['ok']]"
    assert ops_of(head + comps) == {"partition"}
    ifexp = "a, b = [], []\nfor m in h:\n    (a if m['ok'] else b).append(m)"
    assert ops_of(head + ifexp) == {"partition"}
    calls = "from itertools import filterfalse\nok = lambda m: m['ok']\n"
    calls += "a = list(filter(ok, h))\nb = list(filterfalse(ok, h))"
    assert ops_of(head + calls) == {"partition"}


def test_non_complementary_filters_are_not_a_partition() -> None:
    """Two unrelated filters over the same history stay filters."""
    code = """
    h = context["conversation_history"]
    a = [m for m in h if m["ok"]]
    b = [m for m in h if m["speaker"] == "tool"]
    """
    assert ops_of(code) == {"filter"}


def test_grouping_accumulations() -> None:
    """defaultdict appends, dict counters and setdefault keyed by a field are group."""
    head = 'h = context["conversation_history"]\n'
    dd = (
        "from collections import defaultdict\ng = defaultdict(list)\n"
        "for m in h:\n    g[m['speaker']].append(m)"
    )
    assert ops_of(head + dd) == {"group"}
    counter = "c = {}\nfor m in h:\n    c[m['speaker']] = c.get(m['speaker'], 0) + 1"
    assert ops_of(head + counter) == {"group"}
    aug = "c = {}\nfor m in h:\n    c[m['speaker']] += 1"
    assert ops_of(head + aug) == {"group"}
    sd = "g = {}\nfor m in h:\n    g.setdefault(m['speaker'], []).append(m)"
    assert ops_of(head + sd) == {"group"}
    rekey = "d = {}\nfor m in h:\n    d[m['call_id']] = m"
    assert ops_of(head + rekey) == {"map"}


def test_group_members_are_history_collections() -> None:
    """len() of a group built from records counts records."""
    code = """
    groups = {}
    for m in context["conversation_history"]:
        groups.setdefault(m["speaker"], []).append(m)
    result = {k: len(v) for k, v in groups.items()}
    """
    assert ops_of(code) == {"group", "map", "count"}


def test_string_accumulation_is_summarize() -> None:
    """f-string accumulation over records is summarize; guarded accumulation adds filter."""
    head = 'h = context["conversation_history"]\ntext = ""\n'
    assert ops_of(head + "for m in h:\n    text += f\"{m['speaker']}\\n\"") == {"summarize"}
    guarded = "for m in h:\n    if m['ok']:\n        text += m['method_name']"
    assert ops_of(head + guarded) == {"summarize", "filter"}


def test_derived_collections_carry_ops() -> None:
    """Ops on a collection derived from history count as ops on history."""
    code = """
    h = context["conversation_history"]
    recent = h[-10:]
    names = [m["method_name"] for m in recent]
    result = sorted(set(names))
    """
    assert ops_of(code) == {"slice", "peek", "map", "sort"}


def test_function_parameter_receives_history_at_call_site() -> None:
    """A def parameter is history when a call site passes history, even if defined first."""
    code = """
    def last_user(records):
        for r in reversed(records):
            if r["speaker"] == "user":
                return r
        return None

    result = last_user(context["conversation_history"])
    """
    assert ops_of(code) == {"find"}


def test_function_called_with_other_data_is_not_access() -> None:
    """The same helper called only on other data does not read the history."""
    code = """
    def last_user(records):
        return [r for r in records if r["speaker"] == "user"]

    result = last_user(context["orders"])
    """
    assert ops_of(code) is None


def test_return_value_of_helper_flows_back() -> None:
    """A helper returning a slice of its argument yields history to its caller."""
    code = """
    def tail(records, n):
        return records[-n:]

    recent = tail(context["conversation_history"], 3)
    result = [r["call_id"] for r in recent]
    """
    assert ops_of(code) == {"slice", "peek", "map"}


def test_class_attribute_flow() -> None:
    """History stored on self in __init__ is history in the other methods."""
    code = """
    class Q:
        def __init__(self, records):
            self.records = records

        def failed(self):
            return [r for r in self.records if not r["ok"]]

    result = len(Q(context["conversation_history"]).failed())
    """
    assert ops_of(code) == {"filter", "count"}


def test_lambda_key_functions_see_records() -> None:
    """A named predicate passed to filter() sees records and its grep counts."""
    code = """
    import re

    def mentions_refund(rec):
        return re.search("refund", str(rec["args"])) is not None

    result = list(filter(mentions_refund, context["conversation_history"]))
    """
    assert ops_of(code) == {"filter", "grep"}


def test_contextview_shaped_flag() -> None:
    """Simple access is not ContextView-shaped; grep/partition/group/summarize are."""
    simple = analyze_code('h = context["conversation_history"]\nr = [m["x"] for m in h[-5:]]')
    assert simple.ops == {"map", "slice", "peek"}
    assert not simple.contextview_shaped
    shaped = analyze_code('h = context["conversation_history"]\nr = "\\n".join(str(m) for m in h)')
    assert shaped.contextview_shaped


# -- failures ---------------------------------------------------------------------------


def test_syntax_error_falls_back_to_textual_with_the_reason() -> None:
    """Unparsable Python is 'failed' with the SyntaxError and line, and still answers."""
    code = 'h = context["conversation_history"]\nrecent = h[-5:]\nif (:\n'
    result = analyze_code(code)
    assert result.method == "failed"
    assert result.error is not None
    assert result.error.startswith("SyntaxError:") and "line 3" in result.error
    assert result.accessed
    assert {"slice", "peek"} <= result.ops


def test_deep_nesting_is_a_failed_analysis_not_a_crash() -> None:
    """Code too deep to walk is reported as failed rather than raising RecursionError."""
    code = 'h = context["conversation_history"]\nx = ' + " + ".join(["h[0]"] * 30000)
    result = analyze_code(code)
    assert result.method in {"ast", "failed"}
    assert result.accessed


def test_null_bytes_are_a_failed_analysis() -> None:
    """Source with NUL bytes (rejected by the parser) is failed, not an exception."""
    result = analyze_code('h = context["conversation_history"]\x00')
    assert result.method == "failed"
    assert result.error is not None


def test_code_that_never_names_the_history_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A program with no history name anywhere skips the parse and is not accessed."""
    from recurscope.instrumentation.analysis import _analyze

    def no_parse(*args: object) -> object:
        raise AssertionError("parsed")

    monkeypatch.setattr(_analyze, "analyze_python", no_parse)
    monkeypatch.setattr(_analyze, "analyze_ruby", no_parse)
    for code, language in (("x = [1, 2][-1:]\n", "python"), ("x = [1].map { |v| v }\n", "ruby")):
        result = analyze_code(code + "# unique 7f3a", language)
        assert not result.accessed and result.error is None
        assert result.method == ("ast" if language == "python" else "tokens")
