"""``analyze_code``: dispatch by language, never raise, remember the answer.

The recorder calls this for every call that ran generated code, and agent
runtimes re-run the same program many times (cached artifacts, retries), so a
repeat must cost a dict lookup. The cache is an ``OrderedDict`` used as an LRU:
reads take no lock (``get`` and ``move_to_end`` are single C calls, atomic under
the GIL; a concurrent eviction between them is tolerated), writes take one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Final

from .._forks import fresh_after_fork
from ._model import (
    HISTORY_KEY,
    METHOD_AST,
    METHOD_FAILED,
    METHOD_TEXTUAL,
    METHOD_TOKENS,
    CodeAnalysis,
    Finding,
    make_analysis,
)
from ._python import analyze_python
from ._ruby import RubySyntaxError, analyze_ruby
from ._textual import analyze_textual

CACHE_SIZE: Final = 4096
"""Programs remembered; agent sessions reuse a few hundred at most."""

_LANGUAGE_ALIASES: Final = {
    "python": "python",
    "python3": "python",
    "py": "python",
    "ruby": "ruby",
    "rb": "ruby",
}

_CacheKey = tuple[object, object, tuple[object, ...]]
_cache: OrderedDict[_CacheKey, CodeAnalysis] = OrderedDict()
_lock = threading.Lock()
fresh_after_fork(_lock)
_NOT_ANALYSED: Final = Finding(False, frozenset(), None)
_PARSED_BY: Final = {"python": METHOD_AST, "ruby": METHOD_TOKENS}


def analyze_code(
    code: str, language: str = "python", *, history_names: Iterable[str] = ()
) -> CodeAnalysis:
    """Statically analyse how ``code`` reads the conversation history. Never raises.

    ``language`` picks the analyser (``python``/``py``, ``ruby``/``rb``; anything
    else gets the textual fallback). ``history_names`` are extra variable names
    under which the host exposes the history (``conversation_history`` always
    counts). Non-string input yields a ``"failed"`` analysis, not an exception.
    """
    try:
        names = history_names if type(history_names) is tuple else tuple(history_names)
    except Exception:  # a broken iterable is the caller's bug, not a reason to raise
        names = ()
    key = (language, code, names)
    try:
        hit = _cache.get(key)
    except TypeError:  # something unhashable (a list for code, in names): no caching
        return _analyze(code, language, names)
    if hit is not None:
        # try/except rather than contextlib.suppress: this is the hot path
        try:
            _cache.move_to_end(key)
        except KeyError:  # evicted by another thread in between: still a valid answer
            pass
        return hit
    result = _analyze(code, language, names)
    with _lock:
        _cache[key] = result
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return result


def clear_cache() -> None:
    """Forget every remembered analysis (tests and benchmarks measure first sights)."""
    with _lock:
        _cache.clear()


def _failed(language: object, code: object) -> CodeAnalysis:
    label = language if isinstance(language, str) else f"<{type(language).__name__}>"
    return make_analysis(
        label,
        METHOD_FAILED,
        _NOT_ANALYSED,
        f"TypeError: code must be str, got {type(code).__name__}"
        if not isinstance(code, str)
        else f"TypeError: language must be str, got {type(language).__name__}",
    )


def _analyze(code: object, language: object, names: tuple[object, ...]) -> CodeAnalysis:
    if not isinstance(code, str) or not isinstance(language, str):
        return _failed(language, code)
    str_names = tuple(n for n in names if isinstance(n, str) and n)
    canonical = _LANGUAGE_ALIASES.get(language.strip().lower())
    label = canonical or language
    if canonical is not None and not any(name in code for name in (HISTORY_KEY, *str_names)):
        # Every history source names the history (``context["conversation_history"]``,
        # the bare variable, a host-given name): code that never spells one cannot
        # reach it, so the parse — ~0.1-1 ms — is skipped. Same answer, no parse.
        return make_analysis(label, _PARSED_BY[canonical], _NOT_ANALYSED, None)
    try:
        if canonical == "python":
            return make_analysis(label, METHOD_AST, analyze_python(code, str_names), None)
        if canonical == "ruby":
            return make_analysis(label, METHOD_TOKENS, analyze_ruby(code, str_names), None)
        return make_analysis(label, METHOD_TEXTUAL, analyze_textual(code, str_names), None)
    except SyntaxError as exc:
        error = f"SyntaxError: {exc.msg} (line {exc.lineno})"
    except RubySyntaxError as exc:
        error = f"RubySyntaxError: {exc}"
    except RecursionError:
        error = "RecursionError: code nested too deeply to analyse"
    except (ValueError, MemoryError) as exc:  # e.g. null bytes in Python source
        error = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # an analyser bug must not reach the host
        error = f"InternalError: {type(exc).__name__}: {exc}"
    try:
        finding = analyze_textual(code, str_names)
    except Exception:
        finding = _NOT_ANALYSED
    return make_analysis(label, METHOD_FAILED, finding, error)
