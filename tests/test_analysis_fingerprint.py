"""Fingerprints: same history-processing shape, same hash; stable across processes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from recurscope.instrumentation.analysis import analyze_code


def fp(code: str, language: str = "python") -> str:
    result = analyze_code(code, language)
    assert result.fingerprint is not None, result
    return result.fingerprint


PY_TAIL_5 = 'h = context["conversation_history"]\nrecent = h[-5:]\nresult = recent'
PY_CASES_SAME = [
    'h = context["conversation_history"]\nrecent = h[-10:]\nresult = recent',
    'history = context.get("conversation_history", []) or []\nlast = history[-3:]\nresult = last',
    'recent = context["conversation_history"][-7:]\nresult = recent',
    'import math\nh = context["conversation_history"]  # note\nx = math.sqrt(2)\n\n'
    'recent = h[-5:]\nprint("unrelated")\nresult = recent',
]
RB_TAIL = "h = context[:conversation_history] || []\nrecent = h.last(5)\nresult = recent"
RB_CASES_SAME = [
    "history = context.fetch(:conversation_history, [])\nlast = history.last(2)\nresult = last",
    "h = context[:conversation_history] || []\nx = Math.sqrt(2) # c\nrecent = h.last(9)\n"
    'puts "unrelated"\nresult = recent',
]


@pytest.mark.parametrize("other", PY_CASES_SAME)
def test_python_same_shape_same_hash(other: str) -> None:
    """Names, literal values, source spelling, comments and unrelated lines do not matter."""
    assert fp(other) == fp(PY_TAIL_5)


@pytest.mark.parametrize("other", RB_CASES_SAME)
def test_ruby_same_shape_same_hash(other: str) -> None:
    """The same holds for Ruby token fingerprints."""
    assert fp(other, "ruby") == fp(RB_TAIL, "ruby")


def test_different_ops_hash_differently() -> None:
    """A filter and a slice are different shapes."""
    filtered = (
        'h = context["conversation_history"]\nrecent = [m for m in h if m["ok"]]\nresult = recent'
    )
    assert fp(filtered) != fp(PY_TAIL_5)
    rb_filtered = (
        "h = context[:conversation_history] || []\n"
        "recent = h.select { |r| r[:ok] }\nresult = recent"
    )
    assert fp(rb_filtered, "ruby") != fp(RB_TAIL, "ruby")


def test_fingerprint_is_sixteen_hex_digits() -> None:
    """Fingerprints are 16 lowercase hex digits."""
    for value in (fp(PY_TAIL_5), fp(RB_TAIL, "ruby")):
        assert len(value) == 16
        assert value == value.lower()
        int(value, 16)


def test_fingerprint_is_identical_in_another_process() -> None:
    """A fresh interpreter (new hash seed) computes the same fingerprints."""
    script = (
        "import sys\n"
        "from recurscope.instrumentation.analysis import analyze_code\n"
        "print(analyze_code(sys.argv[1]).fingerprint)\n"
        "print(analyze_code(sys.argv[2], 'ruby').fingerprint)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, PY_TAIL_5, RB_TAIL],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )
    assert out.stdout.split() == [fp(PY_TAIL_5), fp(RB_TAIL, "ruby")]
