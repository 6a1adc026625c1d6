"""The result record and the op vocabulary shared by every analyser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CONTEXTVIEW_OPS: Final[frozenset[str]] = frozenset({"grep", "partition", "group", "summarize"})
"""Ops that re-implement a ContextView primitive; plain peek/slice/map is simple access."""

ALL_OPS: Final[frozenset[str]] = frozenset(
    {
        "filter",
        "map",
        "slice",
        "count",
        "group",
        "find",
        "sort",
        "peek",
        "grep",
        "partition",
        "summarize",
        "iterate",
        "index",
        # ``len`` is in the semantic conventions for runtime detectors that see
        # ``__len__`` on an observed view; the static analysers report ``len(h)``
        # as ``count`` and never emit ``len``.
        "len",
    }
)
"""Every op name ``recurscope.history.ops`` may carry."""

HISTORY_KEY: Final = "conversation_history"
"""The context key (and injected variable name) every runtime we know uses."""

METHOD_AST: Final = "ast"
METHOD_TOKENS: Final = "tokens"
METHOD_TEXTUAL: Final = "textual"
METHOD_FAILED: Final = "failed"


@dataclass(frozen=True, slots=True)
class CodeAnalysis:
    """What static analysis found about one generated program's use of the history.

    Fields:
        language: ``"python"``, ``"ruby"`` or the language string the caller passed.
        method: ``"ast"`` (Python), ``"tokens"`` (Ruby), ``"textual"`` (fallback for
            other languages) or ``"failed"`` (the code could not be parsed; the answer
            is the textual fallback's best effort).
        accessed: the code reads the conversation history.
        ops: operations applied to history records or to collections derived from
            them; a subset of ``ALL_OPS``.
        fingerprint: 16 hex digits hashing the normalized history-dependent
            statements; ``None`` when the history is not accessed.
        sketch: a content-free MinHash sketch of the same statements, the ops
            and the record fields read (512 hex digits, ``_sketch.py``), for
            near-duplicate clusters; ``None`` when the history is not accessed
            or the program could not be parsed.
        contextview_shaped: ``ops`` shares an element with ``CONTEXTVIEW_OPS``.
        error: why parsing failed (``"SyntaxError: ... (line 3)"``), else ``None``.

    Invariants: ``ops`` is empty and ``fingerprint`` and ``sketch`` are ``None`` when
    ``accessed`` is false; ``contextview_shaped == bool(ops & CONTEXTVIEW_OPS)``; ``error`` is set
    exactly when ``method == "failed"``.
    """

    language: str
    method: str
    accessed: bool
    ops: frozenset[str]
    fingerprint: str | None
    contextview_shaped: bool
    error: str | None
    sketch: str | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """An analyser's raw answer, before it becomes a ``CodeAnalysis``."""

    accessed: bool
    ops: frozenset[str]
    fingerprint: str | None
    sketch: str | None = None


def make_analysis(language: str, method: str, finding: Finding, error: str | None) -> CodeAnalysis:
    """Build a ``CodeAnalysis`` that satisfies its invariants whatever the finding says."""
    ops = finding.ops & ALL_OPS if finding.accessed else frozenset()
    return CodeAnalysis(
        language=language,
        method=method,
        accessed=finding.accessed,
        ops=ops,
        fingerprint=finding.fingerprint if finding.accessed else None,
        contextview_shaped=bool(ops & CONTEXTVIEW_OPS),
        error=error,
        sketch=finding.sketch if finding.accessed and error is None else None,
    )
