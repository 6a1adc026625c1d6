"""Public surface of recurscope.instrumentation.analysis: record, dispatch, cache."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from recurscope.instrumentation import analysis
from recurscope.instrumentation.analysis import (
    ALL_OPS,
    CONTEXTVIEW_OPS,
    CodeAnalysis,
    analyze_code,
    clear_cache,
)
from recurscope.instrumentation.analysis import _analyze as analyze_module

PY_PROGRAM = 'h = context["conversation_history"]\nresult = [m for m in h if "x" in m["args"]]\n'


def test_all_is_sorted_and_importable() -> None:
    """__all__ is sorted as ruff's RUF022 sorts it (CONSTANTS, Classes, functions) and importable."""

    def isort_style(name: str) -> tuple[int, str]:
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert analysis.__all__ == sorted(analysis.__all__, key=isort_style)
    for name in analysis.__all__:
        assert hasattr(analysis, name)


def test_op_vocabularies() -> None:
    """ContextView ops are grep/partition/group/summarize and every op is in ALL_OPS."""
    assert {"grep", "partition", "group", "summarize"} == CONTEXTVIEW_OPS
    assert CONTEXTVIEW_OPS <= ALL_OPS
    assert len(ALL_OPS) == 14


def test_code_analysis_is_frozen() -> None:
    """CodeAnalysis is an immutable record."""
    result = analyze_code(PY_PROGRAM)
    assert dataclasses.is_dataclass(result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.accessed = False  # type: ignore[misc]


def test_positive_result_satisfies_invariants() -> None:
    """A history-reading program gets ast, ops, a 16-hex fingerprint and the ContextView flag."""
    result = analyze_code(PY_PROGRAM)
    assert result == CodeAnalysis(
        language="python",
        method="ast",
        accessed=True,
        ops=frozenset({"filter", "grep"}),
        fingerprint=result.fingerprint,
        contextview_shaped=True,
        error=None,
        sketch=result.sketch,
        fields_read=frozenset({"args"}),
        static_depth=None,
    )
    assert result.fingerprint is not None
    assert len(result.fingerprint) == 16
    int(result.fingerprint, 16)
    assert result.sketch is not None
    assert len(result.sketch) == 512
    int(result.sketch, 16)


def test_negative_result_has_no_ops_or_fingerprint() -> None:
    """Code that does not read history has no ops and no fingerprint."""
    result = analyze_code("result = sorted([3, 1, 2])[:2]")
    assert (result.accessed, result.ops, result.fingerprint) == (False, frozenset(), None)
    assert not result.contextview_shaped


@pytest.mark.parametrize(
    ("language", "expected_language", "method"),
    [
        ("python", "python", "ast"),
        ("py", "python", "ast"),
        ("Python3", "python", "ast"),
        ("ruby", "ruby", "tokens"),
        ("rb", "ruby", "tokens"),
        ("javascript", "javascript", "textual"),
        ("", "", "textual"),
    ],
)
def test_language_dispatch(language: str, expected_language: str, method: str) -> None:
    """Known languages and aliases pick their analyser; anything else gets the textual fallback."""
    result = analyze_code("x = 1", language)
    assert (result.language, result.method) == (expected_language, method)


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["list"], {"a": 1}])
def test_non_string_code_is_a_failed_analysis(bad: object) -> None:
    """Non-str code returns a failed analysis naming the type instead of raising."""
    result = analyze_code(bad)  # type: ignore[arg-type]
    assert result.method == "failed"
    assert not result.accessed
    assert result.error is not None and "code must be str" in result.error


def test_non_string_language_is_a_failed_analysis() -> None:
    """A non-str language returns a failed analysis instead of raising."""
    result = analyze_code("x = 1", 3)  # type: ignore[arg-type]
    assert result.method == "failed"
    assert result.error is not None and "language must be str" in result.error


def test_history_names_accepts_any_iterable() -> None:
    """history_names may be a list, tuple or generator and ignores non-strings."""
    code = "result = len(messages)"
    assert analyze_code(code, history_names=["messages"]).accessed
    assert analyze_code(code, history_names=("messages",)).accessed
    assert analyze_code(code, history_names=(n for n in ["messages"])).accessed
    assert not analyze_code(code, history_names=[3, None]).accessed  # type: ignore[list-item]


def test_unhashable_history_names_are_ignored_not_fatal() -> None:
    """Unhashable items in history_names are skipped and the analysis still runs."""
    result = analyze_code("result = len(messages)", history_names=["messages", ["x"]])  # type: ignore[list-item]
    assert result.method == "ast" and result.accessed


def test_broken_history_names_iterable_does_not_raise() -> None:
    """An iterable that raises while iterated is treated as no extra names."""

    def broken() -> object:
        yield "messages"
        raise RuntimeError("boom")

    result = analyze_code("result = len(messages)", history_names=broken())  # type: ignore[arg-type]
    assert result.method == "ast"


def test_repeat_call_returns_the_cached_object() -> None:
    """A repeat call with the same (language, code, names) returns the very same result."""
    clear_cache()
    first = analyze_code(PY_PROGRAM)
    assert analyze_code(PY_PROGRAM) is first
    assert analyze_code(PY_PROGRAM, history_names=("h",)) is not first


def test_cache_hit_is_orders_of_magnitude_cheaper_than_a_parse() -> None:
    """A cached repeat costs far less than the first parse (ratio, not absolute time)."""
    programs = [PY_PROGRAM + f"\nvalue_{i} = {i}\n" for i in range(200)]
    clear_cache()
    start = time.perf_counter()
    for code in programs:
        analyze_code(code)
    first = (time.perf_counter() - start) / len(programs)
    rounds = 20
    start = time.perf_counter()
    for _ in range(rounds):
        for code in programs:
            analyze_code(code)
    repeat = (time.perf_counter() - start) / (rounds * len(programs))
    assert first / repeat > 50


def test_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The LRU never holds more than its capacity and evicts the least recently used."""
    monkeypatch.setattr(analyze_module, "CACHE_SIZE", 3)
    clear_cache()
    for i in range(5):
        analyze_code(f"x = {i}")
    assert len(analyze_module._cache) == 3
    kept = [key[1] for key in analyze_module._cache]
    assert kept == ["x = 2", "x = 3", "x = 4"]
    clear_cache()


def test_concurrent_use_is_consistent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads hammering a small cache get correct answers and leave it within bounds."""
    programs = [f'h = context["conversation_history"]\nr{i} = h[-{i + 1}:]' for i in range(40)]
    expected = {code: analyze_code(code) for code in programs}
    errors: list[BaseException] = []

    def worker(offset: int) -> None:
        try:
            for k in range(60):
                code = programs[(k + offset) % len(programs)]
                result = analyze_code(code)
                assert result == expected[code]
        except BaseException as exc:  # collected for the main thread to report
            errors.append(exc)

    # a cache smaller than the working set evicts constantly: the racy path runs
    monkeypatch.setattr(analyze_module, "CACHE_SIZE", 8)
    clear_cache()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(analyze_module._cache) <= 8
    clear_cache()
