"""Recurgent's native JSONL call log: one entry per call, converted to ``recurscope.call`` spans.

Recurgent (a Ruby agent runtime) appends one JSON object per dynamic call to
its log when the call finishes: role, method, the generated ``code``, its
trace linkage (``trace_id``, ``call_id``, ``parent_call_id``, ``depth``),
``duration_ms``, retry telemetry and its own history-access detector
(``history_access_detected``, ``history_query_patterns``). Each entry becomes
one span that follows the semantic conventions, with our static analysis of
the entry's code stored beside the runtime's own verdict. A JSON array of
entries (``jq -s .`` of a log) is read too.

Delegations are calls whose ``parent_call_id`` names another call. A child
finishes — and is logged — before its parent, so a child is held until its
parent's entry arrives (memory: the open call trees, plus a few hundred bytes
per resolved call); children whose parent never appears are emitted at the
end of the source as orphans. The whole tree shares the OTel trace of its
root (a child made with ``Agent.for`` carries a fresh Recurgent trace id).
The format cannot resume mid-file for the same reason; an unchanged log is
still skipped and a grown one re-read (stored spans count as duplicates).

Id hashing, the session rule, what is dropped and the full mapping are in
``docs/formats.md``.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Final

from ....instrumentation import semconv as sc
from ....instrumentation.analysis import analyze_code, program_sketch
from ...records import DecodeLimits, Position, Reason, Rejection
from ..sources import SourceDataError
from ._base import Format, ReadContext
from ._native import (
    Malformed,
    NativeItem,
    NativeUnit,
    any_value,
    make_reader,
    one_span_request,
    parse_json,
    parse_time_ns,
)

__all__ = [
    "FORMAT",
    "SCOPE_NAME",
    "iter_units",
    "session_for_source",
    "sniff_recurgent_jsonl",
    "span_id_for",
    "trace_id_for",
]

NAME: Final = "recurgent_jsonl"
SCOPE_NAME: Final = "recurscope.pipeline.decode.formats.recurgent_jsonl"
"""Instrumentation scope of converted spans: the converter, at the convention version."""

SERVICE_NAME: Final = "recurgent"
SESSION_FIELDS: Final = ("session_id", "conversation_id", "session")
"""Entry fields read as the session, first match wins; Recurgent itself writes none (yet)."""

DEFAULT_LANGUAGE: Final = "ruby"

_ATTEMPT_FAILURE_EVENT: Final = "recurgent.attempt_failure"
# Runtime telemetry without a convention name, kept under the runtime's own
# namespace (validate ignores it; our SQL does not read it). Only scalars
# that are counts, flags or enums — never content.
_PASSTHROUGH: Final[Mapping[str, type]] = {
    "generation_attempt": int,
    "attempt_id": int,
    "attempt_stage": str,
    "guardrail_recovery_attempts": int,
    "execution_repair_attempts": int,
    "outcome_repair_attempts": int,
    "guardrail_retry_exhausted": bool,
    "outcome_repair_retry_exhausted": bool,
    "outcome_repair_triggered": bool,
    "rollback_applied": bool,
    "retry_feedback_injected": bool,
    "validation_failure_type": str,
    "outcome_error_type": str,
    "outcome_retriable": bool,
    "program_source": str,
    "artifact_hit": bool,
    "contract_source": str,
    "execution_receiver": str,
    "history_record_appended": bool,
    "lifecycle_state": str,
}


# --------------------------------------------------------------------------
# Ids and the session.


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def trace_id_for(trace_key: str) -> str:
    """OTel TraceId of a Recurgent trace: the first 16 bytes of sha256("recurgent:trace:" + id)."""
    return _digest("recurgent:trace:" + trace_key)[:16].hex()


def span_id_for(trace_key: str, call_key: str) -> str:
    """OTel SpanId of a call: the first 8 bytes of sha256("recurgent:call:" + trace + ":" + call)."""
    return _digest(f"recurgent:call:{trace_key}:{call_key}")[:8].hex()


def _stem(source: str) -> str:
    name = PurePath(source).name.strip("<>") or "log"
    for suffix in (".gz", ".jsonl", ".ndjson", ".json", ".log"):
        name = name.removesuffix(suffix)
    return name or "log"


def session_for_source(source: str) -> str:
    """The session of a log without a session field: its file stem + 8 hex of sha256(path)."""
    return f"{_stem(source)}-{_digest(source).hex()[:8]}"


def _run_for_source(source: str) -> str:
    return "recurgent-" + _digest("recurgent:run:" + source).hex()[:16]


# --------------------------------------------------------------------------
# Sniffing.


def sniff_recurgent_jsonl(head: bytes, source_name: str) -> int:
    """2 when the first record is an object naming ``role``, ``method`` and call telemetry."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] == b"[":
        text = text[1:].lstrip()
    if text[:1] != b"{" or b'"resourceSpans"' in head:
        return 0
    # Entries open with timestamp, runtime, role, model, method: look for the
    # names rather than for later fields, which a large ``args`` can push
    # past the sniffed head.
    first = text.split(b"\n", 1)[0]
    telemetry = (b'"timestamp"', b'"duration_ms"', b'"generation_attempt"', b'"call_id"')
    if b'"role"' in first and b'"method"' in first and any(k in first for k in telemetry):
        return 2
    return 0


# --------------------------------------------------------------------------
# Field checks.


def _opt_str(entry: Mapping[str, Any], key: str) -> str | None:
    value = entry.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise Malformed(Reason.WRONG_TYPE, f"{key} must be a string or null")
    return value


def _req_str(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        what = "is missing" if value is None else "must be a non-empty string"
        raise Malformed(Reason.WRONG_TYPE, f"{key} {what} (every entry names its {key})")
    return value


def _opt_int(entry: Mapping[str, Any], key: str) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed(Reason.WRONG_TYPE, f"{key} must be an integer or null")
    if value < 0:
        raise Malformed(Reason.INVALID_VALUE, f"{key} {value} is negative")
    return value


def _opt_bool(entry: Mapping[str, Any], key: str) -> bool | None:
    value = entry.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise Malformed(Reason.WRONG_TYPE, f"{key} must be a boolean or null")


def _opt_list(entry: Mapping[str, Any], key: str) -> list[Any] | None:
    value = entry.get(key)
    if value is None or isinstance(value, list):
        return value
    raise Malformed(Reason.WRONG_TYPE, f"{key} must be an array or null")


def _duration_ns(entry: Mapping[str, Any]) -> int:
    value = entry.get("duration_ms")
    if value is None:
        return 0  # documented: a missing duration is a zero-length span ending at the timestamp
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise Malformed(Reason.WRONG_TYPE, "duration_ms must be a number")
    if value < 0:
        raise Malformed(Reason.NEGATIVE_DURATION, f"duration_ms {value} is negative")
    if value > 1e15:
        raise Malformed(Reason.INVALID_VALUE, f"duration_ms {value} is out of range")
    return round(value * 1_000_000)


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=True)


# --------------------------------------------------------------------------
# One entry.


@dataclass(slots=True)
class _Call:
    """An entry converted as far as it can be without its parent."""

    trace_key: str
    call_key: str
    call_id: str
    parent_call_id: str | None
    role: str
    depth: int | None
    explicit_kind: str | None
    attributes: dict[str, Any]
    span: dict[str, Any]
    resource: dict[str, Any]
    excerpt: bytes
    position: Position
    span_id: str = ""


@dataclass(frozen=True, slots=True)
class _Resolved:
    """What a child needs from its parent."""

    trace_key: str
    otel_trace_id: str
    span_id: str
    role: str
    depth: int
    lineage: frozenset[str]  # roles of the call and all its ancestors


@dataclass(slots=True)
class _Tree:
    """Calls of one source: resolved ones by call id, children waiting for their parent."""

    resolved: dict[str, _Resolved] = field(default_factory=dict)
    waiting: dict[str, list[_Call]] = field(default_factory=dict)


def _attempts(entry: Mapping[str, Any], failures: list[Any]) -> int:
    """A lower bound on generation/execution attempts: see docs/formats.md."""
    failed: list[int] = [
        f["attempt_id"]
        for f in failures
        if isinstance(f.get("attempt_id"), int) and not isinstance(f["attempt_id"], bool)
    ]
    count = max(
        1,
        _opt_int(entry, "attempt_id") or 0,
        _opt_int(entry, "generation_attempt") or 0,
        *failed,
    )
    for key in ("execution_repair_attempts", "outcome_repair_attempts"):
        count += _opt_int(entry, key) or 0
    return count


def _convert(entry: Any, ctx: ReadContext, excerpt: bytes, position: Position) -> _Call:
    if not isinstance(entry, dict):
        raise Malformed(Reason.WRONG_TYPE, "a log entry must be a JSON object")
    limits = ctx.limits
    options = ctx.options
    end_ns = parse_time_ns(entry.get("timestamp"), "timestamp")
    start_ns = end_ns - _duration_ns(entry)
    if start_ns <= 0:
        raise Malformed(Reason.TIMESTAMP_OUT_OF_RANGE, "timestamp - duration_ms is before 1970")
    role = _req_str(entry, "role")
    method = _req_str(entry, "method")
    source_trace = _opt_str(entry, "trace_id")
    source_call = _opt_str(entry, "call_id")
    parent_call = _opt_str(entry, "parent_call_id")
    depth = _opt_int(entry, "depth")
    # Entries without ids get ids from where they are: one trace per source,
    # one span per line (stable as long as the file keeps its path and lines).
    trace_key = source_trace or "file:" + ctx.source
    where = f"line:{position.line}"
    if position.span_index is not None:
        where += f":{position.span_index}"  # entries of a JSON array share its line
    call_key = source_call or where
    session = _session(entry, ctx)

    outcome = entry.get("outcome_status")
    if outcome is not None and outcome not in ("ok", "error"):
        raise Malformed(
            Reason.INVALID_VALUE, f"outcome_status {str(outcome)[:40]!r} is not ok/error"
        )
    if outcome is None and entry.get("error_class"):
        outcome = "error"
    failures = _opt_list(entry, "attempt_failures") or []
    if any(not isinstance(f, dict) for f in failures):
        raise Malformed(Reason.WRONG_TYPE, "attempt_failures entries must be objects")
    args = _opt_list(entry, "args")
    kwargs = entry.get("kwargs")
    if kwargs is not None and not isinstance(kwargs, dict):
        raise Malformed(Reason.WRONG_TYPE, "kwargs must be an object or null")
    code = entry.get("code")
    if code is not None and not isinstance(code, str):
        raise Malformed(Reason.WRONG_TYPE, "code must be a string or null")
    patterns = _opt_list(entry, "history_query_patterns")
    if patterns is not None and any(not isinstance(p, str) for p in patterns):
        raise Malformed(Reason.WRONG_TYPE, "history_query_patterns must hold strings")
    runtime = _opt_str(entry, "runtime")

    attrs: dict[str, Any] = {
        sc.GEN_AI_OPERATION_NAME: "invoke_agent",
        sc.GEN_AI_AGENT_NAME: role,
        sc.GEN_AI_CONVERSATION_ID: session,
        sc.CALL_ID: call_key,
        sc.CALL_METHOD: method,
        sc.CALL_ROLE: role,
        sc.CALL_ATTEMPTS: _attempts(entry, failures),
    }
    if parent_call is not None:
        attrs[sc.CALL_PARENT_ID] = parent_call
    model = _opt_str(entry, "model")
    if model is not None:
        attrs[sc.GEN_AI_REQUEST_MODEL] = model
    prompt_version = _opt_str(entry, "artifact_prompt_version")
    if prompt_version is not None:
        attrs[sc.PROMPT_VERSION] = prompt_version
    if outcome is not None:
        attrs[sc.CALL_OUTCOME_STATUS] = outcome
    history_size = _opt_int(entry, "conversation_history_size")
    if history_size is not None:
        attrs[sc.HISTORY_SIZE] = history_size
    reported = _opt_bool(entry, "history_access_detected")
    if reported is not None:
        attrs[sc.HISTORY_REPORTED_ACCESSED] = reported
    if patterns is not None:
        attrs[sc.HISTORY_REPORTED_OPS] = list(patterns)

    if args or kwargs:
        args_text = _json_text(args or [])
        kwargs_text = _json_text(kwargs or {})
        attrs[sc.CALL_ARGS_SIZE] = len(args_text.encode("utf-8", "surrogatepass")) + len(
            kwargs_text.encode("utf-8", "surrogatepass")
        )
        if options.capture_content:
            attrs[sc.CALL_ARGS] = args_text
            attrs[sc.CALL_KWARGS] = kwargs_text

    if code is not None and code.strip():
        attrs.update(_code_attributes(code, runtime, options.capture_content))
    if options.capture_content and outcome is not None:
        attrs[sc.CALL_OUTCOME_SUMMARY] = _json_text(_outcome_summary(entry, outcome))

    for key, kind in _PASSTHROUGH.items():
        value = entry.get(key)
        if isinstance(value, kind) and (kind is not int or not isinstance(value, bool)):
            attrs["recurgent." + key] = value

    attrs[sc.SOURCE_FORMAT] = NAME
    if source_trace is not None:
        attrs[sc.SOURCE_TRACE_ID] = source_trace
    if source_call is not None:
        attrs[sc.SOURCE_CALL_ID] = source_call

    events = [_failure_event(f, start_ns, options.capture_content, limits) for f in failures]
    if options.capture_content:
        events.extend(_prompt_events(entry, start_ns))
    span: dict[str, Any] = {
        "name": sc.SPAN_CALL,
        "kind": 1,
        "startTimeUnixNano": str(start_ns),
        "endTimeUnixNano": str(end_ns),
    }
    if outcome == "error":
        reason = _opt_str(entry, "outcome_error_type") or _opt_str(entry, "error_class") or ""
        span["status"] = {"code": 2, "message": reason}
    if events:
        span["events"] = events
    resource: dict[str, Any] = {
        "service.name": SERVICE_NAME,
        sc.SERVICE_INSTANCE_ID: _run_for_source(ctx.source),
    }
    if runtime is not None:
        resource["process.runtime.name"] = runtime
    return _Call(
        trace_key=trace_key,
        call_key=call_key,
        call_id=source_call or call_key,
        parent_call_id=parent_call,
        role=role,
        depth=depth,
        explicit_kind=_opt_str(entry, "delegation_kind"),
        attributes=attrs,
        span=span,
        resource=resource,
        excerpt=excerpt,
        position=position,
    )


def _session(entry: Mapping[str, Any], ctx: ReadContext) -> str:
    """``--session``, else the entry's own session field, else one session per file."""
    if ctx.options.session is not None:
        return ctx.options.session
    for key in SESSION_FIELDS:
        found = _opt_str(entry, key)
        if found is not None:
            return found
    return session_for_source(ctx.source)


def _code_attributes(code: str, runtime: str | None, capture: bool) -> dict[str, Any]:
    """Our static analysis of the entry's program, plus its hash and size (content opt-in)."""
    language = runtime if runtime in ("ruby", "python") else DEFAULT_LANGUAGE
    analysis = analyze_code(code, language)
    data = code.encode("utf-8", "surrogatepass")
    attrs: dict[str, Any] = {
        sc.HISTORY_ACCESSED: analysis.accessed,
        sc.HISTORY_OPS: sorted(analysis.ops),
        # Only static analysis saw this call: the runtime's verdict is kept
        # apart as reported_accessed, never folded into ours.
        sc.HISTORY_DETECTION: "static" if analysis.accessed else "none",
        sc.HISTORY_CONTEXTVIEW_SHAPED: analysis.contextview_shaped,
        sc.CODE_LANGUAGE: language,
        sc.CODE_ANALYSIS: analysis.method,
        sc.CODE_HASH: hashlib.sha256(data).hexdigest()[:16],
        sc.CODE_SIZE: len(data),
    }
    if analysis.fingerprint:
        attrs[sc.CODE_FINGERPRINT] = analysis.fingerprint
    sketch = program_sketch(code, language, analysis.sketch)
    if sketch:
        attrs[sc.CODE_SKETCH] = sketch
    # Which record fields the program reads, and its literal tail bound: the
    # logs carry no runtime view, so these are all the depth they can give.
    if analysis.fields_read:
        attrs[sc.HISTORY_FIELDS_READ] = sorted(analysis.fields_read)
    if analysis.static_depth is not None:
        attrs[sc.HISTORY_STATIC_DEPTH] = analysis.static_depth
    if capture:
        attrs[sc.CODE_CONTENT] = code
    return attrs


def _prompt_events(entry: Mapping[str, Any], time_ns: int) -> list[dict[str, Any]]:
    """A debug log's prompts as GenAI message events (content capture only)."""
    events = []
    for key, name in (
        ("system_prompt", "gen_ai.system.message"),
        ("user_prompt", "gen_ai.user.message"),
    ):
        prompt = entry.get(key)
        if isinstance(prompt, str):
            events.append(
                {
                    "name": name,
                    "timeUnixNano": str(time_ns),
                    "attributes": [{"key": "content", "value": {"stringValue": prompt}}],
                }
            )
    return events


def _outcome_summary(entry: Mapping[str, Any], outcome: str) -> dict[str, Any]:
    """Shaped like the ``outcome_summary`` Recurgent keeps in its conversation history."""
    if outcome == "ok":
        summary: dict[str, Any] = {"ok": True}
        if "outcome_value_class" in entry:
            summary["value_class"] = entry.get("outcome_value_class")
        if "outcome_value" in entry:
            summary["value"] = entry.get("outcome_value")
        return summary
    return {
        "ok": False,
        "error_type": entry.get("outcome_error_type"),
        "error_message": entry.get("outcome_error_message"),
    }


def _failure_event(
    failure: Mapping[str, Any], default_ns: int, capture: bool, limits: DecodeLimits
) -> dict[str, Any]:
    """One failed attempt as a span event; its message is content (opt-in)."""
    try:
        time_ns = parse_time_ns(failure.get("timestamp"), "attempt failure timestamp")
    except Malformed:
        time_ns = default_ns  # an auxiliary time: fall back rather than lose the span
    attributes: dict[str, Any] = {}
    for key, name in (("attempt_id", "recurgent.attempt_id"), ("stage", "recurgent.stage")):
        value = failure.get(key)
        if isinstance(value, int | str) and not isinstance(value, bool):
            attributes[name] = value
    error_class = failure.get("error_class")
    if isinstance(error_class, str):
        attributes["exception.type"] = error_class
    message = failure.get("error_message")
    if capture and isinstance(message, str):
        attributes["exception.message"] = message
    return {
        "name": _ATTEMPT_FAILURE_EVENT,
        "timeUnixNano": str(time_ns),
        "attributes": [{"key": k, "value": any_value(v, limits)} for k, v in attributes.items()],
    }


# --------------------------------------------------------------------------
# Trees.


def _emit(call: _Call, parent: _Resolved | None, tree: _Tree, limits: DecodeLimits) -> NativeUnit:
    """Finish ``call`` with what its parent says (``None``: a root, or an orphan)."""
    attrs = call.attributes
    own_trace = trace_id_for(call.trace_key)
    span_id = span_id_for(call.trace_key, call.call_key)
    if call.parent_call_id is None:
        otel_trace, parent_span, depth = own_trace, "", call.depth or 0
        lineage = frozenset({call.role})
    elif parent is not None:
        otel_trace, parent_span = parent.otel_trace_id, parent.span_id
        depth = call.depth if call.depth is not None else parent.depth + 1
        # A child made by delegate() inherits its caller's Recurgent trace id;
        # Agent.for(...) in generated code starts a fresh one.
        kind = call.explicit_kind or (
            "agent_for" if parent.trace_key != call.trace_key else "delegate"
        )
        attrs[sc.DELEGATION_KIND] = kind
        attrs[sc.DELEGATION_CALLER_ROLE] = parent.role
        attrs[sc.DELEGATION_SAME_ROLE] = call.role in parent.lineage
        lineage = parent.lineage | {call.role}
    else:
        # The parent never appeared in this source: keep the linkage we can
        # compute (its id under the child's own trace), but no caller facts.
        otel_trace = own_trace
        parent_span = span_id_for(call.trace_key, call.parent_call_id)
        depth = call.depth if call.depth is not None else 1
        attrs[sc.DELEGATION_KIND] = call.explicit_kind or "delegate"
        lineage = frozenset({call.role})
    attrs[sc.CALL_DEPTH] = depth
    tree.resolved.setdefault(
        call.call_id, _Resolved(call.trace_key, otel_trace, span_id, call.role, depth, lineage)
    )
    span = dict(call.span)
    span["traceId"] = otel_trace
    span["spanId"] = span_id
    span["parentSpanId"] = parent_span
    span["attributes"] = [{"key": k, "value": any_value(v, limits)} for k, v in attrs.items()]
    scope = {
        "name": SCOPE_NAME,
        "version": sc.SEMCONV_VERSION,
        "attributes": [
            {"key": "recurscope.semconv.version", "value": {"stringValue": sc.SEMCONV_VERSION}}
        ],
    }
    resource = [{"key": k, "value": any_value(v, limits)} for k, v in call.resource.items()]
    return NativeUnit(
        one_span_request(span, resource=resource, scope=scope), call.excerpt, call.position
    )


def _settle(call: _Call, tree: _Tree, limits: DecodeLimits) -> Iterator[NativeUnit]:
    """Emit ``call`` if its parent is known (or it has none), then every child waiting on it."""
    if call.parent_call_id is not None:
        parent = tree.resolved.get(call.parent_call_id)
        if parent is None:
            tree.waiting.setdefault(call.parent_call_id, []).append(call)
            return
    else:
        parent = None
    ready = [(call, parent)]
    while ready:
        current, current_parent = ready.pop()
        yield _emit(current, current_parent, tree, limits)
        resolved = tree.resolved[current.call_id]
        for child in tree.waiting.pop(current.call_id, ()):
            ready.append((child, resolved))


def _orphans(tree: _Tree, limits: DecodeLimits) -> Iterator[NativeUnit]:
    """At the end of the source: children whose parent never came, in source order."""
    while tree.waiting:
        waiting_ids = {c.call_id for calls in tree.waiting.values() for c in calls}
        # Prefer subtrees whose missing parent is not itself waiting (a real
        # orphan); a cycle of parents has none, so then take the earliest.
        roots = [key for key in tree.waiting if key not in waiting_ids] or [
            min(tree.waiting, key=lambda k: tree.waiting[k][0].position.line or 0)
        ]
        for key in roots:
            for call in tree.waiting.pop(key, ()):
                yield _emit(call, None, tree, limits)
                resolved = tree.resolved[call.call_id]
                stack = [(child, resolved) for child in tree.waiting.pop(call.call_id, ())]
                while stack:
                    child, parent = stack.pop()
                    yield _emit(child, parent, tree, limits)
                    child_resolved = tree.resolved[child.call_id]
                    stack.extend((c, child_resolved) for c in tree.waiting.pop(child.call_id, ()))


# --------------------------------------------------------------------------
# Reading.


def _records(
    stream: io.BufferedReader, ctx: ReadContext
) -> Iterator[tuple[bytes, Position, Any] | Rejection]:
    """(raw record, position, parsed JSON) per entry: JSON lines, or one JSON array."""
    limits = ctx.limits
    cap = limits.max_record_bytes
    offset = ctx.start_offset
    line = ctx.start_line
    first = True
    while True:
        raw = stream.readline(cap + 1)
        if not raw:
            return
        start = offset
        line += 1
        offset += len(raw)
        if raw.isspace():
            continue
        position = Position(line=line, byte_offset=start)
        if first and raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"[":
            # A whole-array document (the stream schema): read it at once.
            rest = stream.read(cap + 1 - len(raw))
            whole = raw + rest
            if len(whole) > cap:
                while stream.read(1 << 20):
                    pass
                yield Rejection(
                    Reason.RECORD_TOO_LARGE,
                    f"a JSON array document over the {cap}-byte cap (raise it with "
                    "--max-record-bytes, or keep the log as JSON lines)",
                    whole[: limits.excerpt_bytes],
                    position,
                )
                return
            parsed = parse_json(whole, position, limits)
            if isinstance(parsed, Rejection):
                yield parsed
                return
            for index, item in enumerate(parsed):
                item_position = Position(line=line, byte_offset=start, span_index=index)
                text = json.dumps(item, ensure_ascii=False)[: limits.excerpt_bytes]
                yield text.encode("utf-8", "surrogatepass"), item_position, item
            return
        first = False
        if not raw.endswith(b"\n") and len(raw) > cap:
            size = len(raw)
            while True:
                more = stream.readline(1 << 20)
                if not more:
                    break
                size += len(more)
                offset += len(more)
                if more.endswith(b"\n"):
                    break
            yield Rejection(
                Reason.RECORD_TOO_LARGE,
                f"line is {size} bytes, over the {cap}-byte cap (raise it with --max-record-bytes)",
                raw[: limits.excerpt_bytes],
                position,
            )
            continue
        parsed = parse_json(raw, position, limits)
        if isinstance(parsed, Rejection):
            yield parsed
            continue
        yield raw[: limits.excerpt_bytes], position, parsed


def iter_units(stream: io.BufferedReader, ctx: ReadContext) -> Iterator[NativeItem]:
    """Every entry of the log as a converted :class:`NativeUnit`, or a rejection."""
    limits = ctx.limits
    tree = _Tree()
    try:
        for record in _records(stream, ctx):
            if isinstance(record, Rejection):
                yield record
                continue
            excerpt, position, parsed = record
            try:
                call = _convert(parsed, ctx, excerpt, position)
            except Malformed as bad:
                yield _rejection(bad, parsed, excerpt, position)
                continue
            except RecursionError:
                yield Rejection(
                    Reason.TOO_DEEPLY_NESTED, "values nest too deeply", excerpt, position
                )
                continue
            yield from _settle(call, tree, limits)
    except SourceDataError as error:
        yield Rejection(error.reason, error.detail, b"", Position())
    yield from _orphans(tree, limits)


def _rejection(bad: Malformed, parsed: Any, excerpt: bytes, position: Position) -> Rejection:
    trace_id = span_id = ""
    if isinstance(parsed, dict):
        trace = parsed.get("trace_id")
        call = parsed.get("call_id")
        if isinstance(trace, str):
            trace_id = trace_id_for(trace)
            if isinstance(call, str):
                span_id = span_id_for(trace, call)
    return Rejection(bad.reason, bad.detail, excerpt, position, trace_id=trace_id, span_id=span_id)


FORMAT: Final = Format(
    name=NAME,
    summary="Recurgent native JSONL call log: one entry per call, converted to recurscope.call spans",
    read=make_reader(iter_units),
    sniff=sniff_recurgent_jsonl,
)
