"""Property tests: analyze_code never raises and always returns a consistent record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recurscope.instrumentation.analysis import (
    ALL_OPS,
    CONTEXTVIEW_OPS,
    CodeAnalysis,
    analyze_code,
    clear_cache,
)

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "data" / "detector-corpus"


def _programs() -> list[tuple[str, str]]:
    programs = [("python", p.read_text()) for p in sorted((CORPUS / "python").glob("*.py"))]
    programs += [("ruby", p.read_text()) for p in sorted((CORPUS / "ruby").glob("*.rb"))]
    reference = REPO.parent / "shared" / "reference" / "recurgent" / "logs" / "adr-0027"
    for path in sorted(reference.glob("*.jsonl"))[:2]:
        for line in path.read_text(encoding="utf-8").splitlines():
            code = json.loads(line).get("code")
            if isinstance(code, str):
                programs.append(("ruby", code))
    return programs


PROGRAMS = _programs()
# Characters that stress the tokenizers' ambiguous spots.
TRICKY = [
    *"()[]{}|.,:;=<>!?#\"'`/%&*-+@$\\\n\t ",
    "do", "end", "if ", "<<~X", "#{", "=begin\n", "->", "for ", " in ", "def ", "yield",
    "context[:conversation_history]", 'context["conversation_history"]', "lambda ",
]  # fmt: skip
# pytest re-enables DeprecationWarnings inside tests, overriding the analyser's own
# filter for compile warnings of generated code ("invalid escape sequence").
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_consistent(result: object) -> None:
    assert isinstance(result, CodeAnalysis)
    assert result.method in {"ast", "tokens", "textual", "failed"}
    assert result.ops <= ALL_OPS
    assert result.contextview_shaped == bool(result.ops & CONTEXTVIEW_OPS)
    assert (result.fingerprint is not None) == result.accessed
    if not result.accessed:
        assert not result.ops
    if result.fingerprint is not None:
        assert len(result.fingerprint) == 16
    assert (result.error is not None) == (result.method == "failed")
    # a failure must be the code's fault, never an analyser bug
    assert not (result.error or "").startswith("InternalError"), result.error


@SETTINGS
@given(
    code=st.text(),
    language=st.one_of(st.sampled_from(["python", "ruby", "go", "py", "rb"]), st.text()),
    names=st.lists(st.text(max_size=12), max_size=3),
)
def test_random_text_never_raises(code: str, language: str, names: list[str]) -> None:
    """Any text in any language string yields a consistent analysis."""
    assert_consistent(analyze_code(code, language, history_names=names))


@SETTINGS
@given(
    program=st.sampled_from(PROGRAMS),
    edits=st.lists(
        st.tuples(
            st.sampled_from(["delete", "insert", "duplicate"]),
            st.floats(0, 1),
            st.integers(0, 30),
            st.sampled_from(TRICKY),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_real_programs_never_raise(
    program: tuple[str, str], edits: list[tuple[str, float, int, str]]
) -> None:
    """Real programs with random deletions, insertions and duplications analyse cleanly."""
    language, code = program
    for kind, where, length, payload in edits:
        i = int(where * len(code))
        j = min(len(code), i + length)
        if kind == "delete":
            code = code[:i] + code[j:]
        elif kind == "insert":
            code = code[:i] + payload + code[i:]
        else:
            code = code[:i] + code[i:j] * 2 + code[j:]
    assert_consistent(analyze_code(code, language))


@settings(max_examples=60, deadline=None)
@given(program=st.sampled_from(PROGRAMS))
def test_analysis_is_deterministic(program: tuple[str, str]) -> None:
    """Analysing the same program twice from a cold cache gives equal results."""
    language, code = program
    clear_cache()
    first = analyze_code(code, language)
    clear_cache()
    assert analyze_code(code, language) == first


@SETTINGS
@given(prefix=st.text(max_size=40), suffix=st.text(max_size=40))
def test_unrelated_text_around_a_real_read_is_harmless(prefix: str, suffix: str) -> None:
    """Arbitrary text in a comment or string never raises and never hides a real read."""
    code = f"# {prefix!r}\nh = context['conversation_history']\nn = len(h)\nnote = {suffix!r}\n"
    result = analyze_code(code)
    assert_consistent(result)
    assert result.accessed and "count" in result.ops
