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

RECORD_TOP_FIELDS: Final[frozenset[str]] = frozenset(
    {
        # the V1 history record
        "call_id",
        "timestamp",
        "speaker",
        "method_name",
        "args",
        "kwargs",
        "outcome_summary",
        # chat-message records (GenAI messages, OpenAI-style history)
        "role",
        "content",
        "name",
        "tool_calls",
        "parts",
        "goal",
        "need",
        "parent_call_id",
        "depth",
    }
)
"""Record fields ``fields_read`` names as they are: the history record schema's top level."""

OUTCOME_FIELD: Final = "outcome_summary"
"""The one record field whose own keys ``fields_read`` names too (``outcome_summary.ok``)."""

OUTCOME_KEYS: Final[frozenset[str]] = frozenset(
    {"ok", "status", "value_class", "error_type", "error_message", "content_ref", "summary"}
)
"""Keys of ``outcome_summary`` that ``fields_read`` names, as ``outcome_summary.<key>``."""

ALL_FIELDS: Final[frozenset[str]] = RECORD_TOP_FIELDS | {
    f"{OUTCOME_FIELD}.{k}" for k in OUTCOME_KEYS
}
"""Every name ``recurscope.history.fields_read`` may carry: schema names, never code content."""

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
        fields_read: record fields the program reads from history records (a record
            of the history, or one picked from it), a subset of ``ALL_FIELDS``: keys of
            ``outcome_summary`` appear as ``outcome_summary.<key>`` beside
            ``outcome_summary``; any other key is never named.
        static_depth: how many records from the newest the program can read at most,
            when every read of the history has a literal tail bound (``h[-5:]``: 5,
            ``h.last``: 1); ``None`` when some read is unbounded, reads from the head
            or has a computed bound, or when no record is read at all (only ``len``).

    Invariants: ``ops`` and ``fields_read`` are empty and ``fingerprint``, ``sketch`` and
    ``static_depth`` are ``None`` when ``accessed`` is false;
    ``contextview_shaped == bool(ops & CONTEXTVIEW_OPS)``; ``error`` is set exactly when
    ``method == "failed"``; ``outcome_summary`` is in ``fields_read`` whenever one of its
    keys is; ``static_depth`` is ``None`` or at least 1.
    """

    language: str
    method: str
    accessed: bool
    ops: frozenset[str]
    fingerprint: str | None
    contextview_shaped: bool
    error: str | None
    sketch: str | None = None
    fields_read: frozenset[str] = frozenset()
    static_depth: int | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """An analyser's raw answer, before it becomes a ``CodeAnalysis``."""

    accessed: bool
    ops: frozenset[str]
    fingerprint: str | None
    sketch: str | None = None
    fields_read: frozenset[str] = frozenset()
    static_depth: int | None = None


def make_analysis(language: str, method: str, finding: Finding, error: str | None) -> CodeAnalysis:
    """Build a ``CodeAnalysis`` that satisfies its invariants whatever the finding says."""
    ops = finding.ops & ALL_OPS if finding.accessed else frozenset()
    fields = finding.fields_read & ALL_FIELDS if finding.accessed else frozenset()
    if any(name.startswith(f"{OUTCOME_FIELD}.") for name in fields):
        fields |= {OUTCOME_FIELD}
    depth = finding.static_depth
    if not finding.accessed or type(depth) is not int or depth < 1:
        depth = None
    return CodeAnalysis(
        language=language,
        method=method,
        accessed=finding.accessed,
        ops=ops,
        fingerprint=finding.fingerprint if finding.accessed else None,
        contextview_shaped=bool(ops & CONTEXTVIEW_OPS),
        error=error,
        sketch=finding.sketch if finding.accessed and error is None else None,
        fields_read=fields,
        static_depth=depth,
    )
