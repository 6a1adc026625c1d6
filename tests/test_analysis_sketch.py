"""The content-free sketch: datasketch's MinHash bit for bit, and nothing of the program in it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.instrumentation.analysis import analyze_code
from recurscope.instrumentation.analysis._sketch import (
    NUM_PERM,
    SKETCH_HEX,
    bands,
    decode,
    encode,
    features,
    minhash,
    similarity,
)

datasketch = pytest.importorskip("datasketch")

PY = """
history = context["conversation_history"]
wanted = [r for r in history if r["speaker"] == "calculator" and r["outcome_summary"]["ok"]]
result = [{"method": r["method_name"], "args": r["args"]} for r in wanted[-5:]]
"""

RB_BRACES = """
history_records = context[:conversation_history] || []
operations = history_records.select { |rec|
  rec[:speaker] == "calculator" && rec[:outcome_summary][:ok]
}.map { |rec| { method: rec[:method_name], args: rec[:args] } }
result = { operations: operations, operation_count: operations.size }
"""

RB_DO_END = """
records = context[:conversation_history] || []
ops = records.filter do |record|
  record[:speaker] == "accountant" && record[:outcome_summary][:ok]
end.collect do |record|
  { name: record[:method_name], arguments: record[:args] }
end
result = { items: ops, total: ops.length }
"""

identifiers = st.from_regex(r"[a-z][a-z0-9_]{2,10}", fullmatch=True).filter(
    lambda s: (
        s not in {"and", "for", "not", "def", "del", "try", "with", "class", "else", "elif", "from"}
        and s not in {"if", "in", "is", "or", "as", "len", "set", "sum", "max", "min", "str", "int"}
        and not s.startswith("v")
    )
)


@given(st.lists(st.text(min_size=1, max_size=20), min_size=0, max_size=30))
@settings(max_examples=100, deadline=None)
def test_minhash_equals_datasketch_bit_for_bit(items: list[str]) -> None:
    theirs = datasketch.MinHash(num_perm=NUM_PERM, seed=1, scheme="affine32")
    for item in items:
        theirs.update(item.encode("utf-8", "surrogatepass"))
    assert minhash(items) == [int(v) for v in theirs.hashvalues]


def test_similarity_is_datasketch_jaccard_estimate() -> None:
    a, b = {"x", "y", "z", "w"}, {"x", "y", "z", "q"}
    ours = similarity(encode(minhash(a)), encode(minhash(b)))
    ma = datasketch.MinHash(num_perm=NUM_PERM, seed=1, scheme="affine32")
    mb = datasketch.MinHash(num_perm=NUM_PERM, seed=1, scheme="affine32")
    for x in a:
        ma.update(x.encode())
    for x in b:
        mb.update(x.encode())
    assert ours == ma.jaccard(mb)


def test_encoding_round_trips_and_bands_cover_the_sketch() -> None:
    values = minhash({"a", "b"})
    sketch = encode(values)
    assert len(sketch) == SKETCH_HEX and decode(sketch) == values
    assert "".join(bands(sketch, 4)) == sketch and len(bands(sketch, 4)) == 16


def test_python_and_ruby_programs_get_a_sketch() -> None:
    for code, language in ((PY, "python"), (RB_BRACES, "ruby")):
        result = analyze_code(code, language)
        assert result.sketch is not None and len(result.sketch) == SKETCH_HEX
    assert analyze_code("result = 1", "python").sketch is None
    assert analyze_code("result = (", "python").sketch is None  # failed parse: no sketch


def test_braces_and_do_end_synonyms_and_renames_share_the_sketch() -> None:
    a = analyze_code(RB_BRACES, "ruby")
    b = analyze_code(RB_DO_END, "ruby")
    assert a.fingerprint != b.fingerprint
    assert a.sketch is not None and b.sketch is not None
    assert similarity(a.sketch, b.sketch) >= 0.9


def test_first_five_and_last_five_fall_apart() -> None:
    last = analyze_code(PY, "python")
    first = analyze_code(PY.replace("wanted[-5:]", "wanted[:5]"), "python")
    assert last.sketch is not None and first.sketch is not None
    assert similarity(last.sketch, first.sketch) < 0.7


@given(identifiers, identifiers, st.from_regex(r"q[a-z]{5,9}", fullmatch=True))
@settings(max_examples=60, deadline=None)
def test_sketch_carries_no_identifier_or_literal(name: str, other: str, literal: str) -> None:
    """Renaming variables and changing literals leave the sketch alone; features never show them."""
    code = (
        f'{name} = context["conversation_history"]\n'
        f'{other} = [r["args"] for r in {name} if r["speaker"] == "{literal}"]\n'
        f"result = len({other})\n"
    )
    base = (
        'h = context["conversation_history"]\n'
        'xs = [r["args"] for r in h if r["speaker"] == "user"]\n'
        "result = len(xs)\n"
    )
    ours = analyze_code(code, "python")
    assert ours.sketch == analyze_code(base, "python").sketch
    import ast

    from recurscope.instrumentation.analysis import _python

    analyzer = _python.PythonAnalyzer(ast.parse(code), ())
    ops = analyzer.run().ops
    text = " ".join(sorted(features(analyzer._shape(True), ops)))
    words = set(text.replace("/", " ").replace(":", " ").replace("#", " ").split())
    assert name not in words and other not in words
    assert literal not in text


def test_sketch_is_identical_in_another_process() -> None:
    probe = (
        "from recurscope.instrumentation.analysis import analyze_code\n"
        f"print(analyze_code({RB_BRACES!r}, 'ruby').sketch)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == analyze_code(RB_BRACES, "ruby").sketch
