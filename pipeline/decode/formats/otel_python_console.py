"""OTel Python ``ConsoleSpanExporter`` output: concatenated ``ReadableSpan.to_json()`` objects.

The exporter writes each span as pretty-printed JSON (indent 4) followed by a
newline. It is not OTLP: ids are ``0x``-prefixed hex under ``context``,
``kind`` is ``"SpanKind.INTERNAL"``, times are ISO strings with microseconds,
attributes are a plain JSON object (types implied by the JSON value), the
status is ``{"status_code": "ERROR", "description": ...}`` and there is no
instrumentation scope. Python's ``json.dumps`` also writes bare ``NaN`` and
``Infinity`` for such doubles, so those are accepted here. Each object is
converted to an OTLP JSON request and decoded by the OTLP decoder (see
``_native``). See ``docs/formats.md``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from typing import Any, Final

from ...records import Checkpoint, DecodeLimits, Position, Reason, Rejection
from ._base import Format, ReadContext
from ._native import (
    Malformed,
    NativeItem,
    NativeUnit,
    iter_json_objects,
    key_values,
    make_reader,
    one_span_request,
    parse_json,
    parse_time_ns,
)

__all__ = ["FORMAT", "convert_span", "iter_units", "sniff_otel_python_console"]

NAME: Final = "otel_python_console"

_KINDS: Final = {"INTERNAL": 1, "SERVER": 2, "CLIENT": 3, "PRODUCER": 4, "CONSUMER": 5}
_STATUS: Final = {"UNSET": 0, "OK": 1, "ERROR": 2}
_TRACE_STATE_ENTRY: Final = re.compile(r"\{key=([^,{}]*), value=([^{}]*)\}")
_SNIFF: Final = re.compile(rb'"context"\s*:\s*\{\s*"trace_id"\s*:\s*"0x')


def sniff_otel_python_console(head: bytes, source_name: str) -> int:
    """2 when the first object has a ``context`` whose ``trace_id`` is ``0x`` hex."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] == b"{" and _SNIFF.search(head):
        return 2
    return 0


def _hex_id(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise Malformed(
            Reason.INVALID_ID if value is None else Reason.WRONG_TYPE,
            f"{what} must be a 0x-hex string",
        )
    return value[2:] if value[:2] in ("0x", "0X") else value


def _trace_state(value: Any) -> str:
    """``repr(TraceState)`` (``"['{key=a, value=b}']"``) back to the W3C ``a=b`` form."""
    if not isinstance(value, str):
        return ""
    return ",".join(f"{k}={v}" for k, v in _TRACE_STATE_ENTRY.findall(value))


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Malformed(Reason.WRONG_TYPE, f"{what} must be an object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Malformed(Reason.WRONG_TYPE, f"{what} must be an array")
    return value


def _kind(value: Any) -> int:
    if value is None:
        return 0
    if not isinstance(value, str):
        raise Malformed(Reason.WRONG_TYPE, "kind must be a string such as 'SpanKind.INTERNAL'")
    name = value.removeprefix("SpanKind.")
    if name not in _KINDS:
        raise Malformed(Reason.INVALID_VALUE, f"kind {value[:40]!r} is not a SpanKind")
    return _KINDS[name]


def convert_span(obj: Any, limits: DecodeLimits) -> dict[str, Any]:
    """One ``to_json()`` object as an OTLP JSON request; :class:`Malformed` if it is not one."""
    if not isinstance(obj, dict):
        raise Malformed(Reason.WRONG_TYPE, "a span must be a JSON object")
    context = _object(obj.get("context"), "context")
    if not context:
        raise Malformed(Reason.INVALID_ID, "context (trace_id, span_id) is missing")
    name = obj.get("name")
    if not isinstance(name, str):
        raise Malformed(Reason.WRONG_TYPE, "name must be a string")
    span: dict[str, Any] = {
        "traceId": _hex_id(context.get("trace_id"), "context.trace_id"),
        "spanId": _hex_id(context.get("span_id"), "context.span_id"),
        "traceState": _trace_state(context.get("trace_state")),
        "name": name,
        "kind": _kind(obj.get("kind")),
        "startTimeUnixNano": str(parse_time_ns(obj.get("start_time"), "start_time")),
        "endTimeUnixNano": str(parse_time_ns(obj.get("end_time"), "end_time")),
        "attributes": key_values(_object(obj.get("attributes"), "attributes"), limits),
    }
    parent = obj.get("parent_id")
    if parent is not None:
        span["parentSpanId"] = _hex_id(parent, "parent_id")
    status = _object(obj.get("status"), "status")
    if status:
        code = status.get("status_code", "UNSET")
        if not isinstance(code, str) or code not in _STATUS:
            raise Malformed(
                Reason.INVALID_VALUE, f"status_code {str(code)[:40]!r} is not UNSET, OK or ERROR"
            )
        description = status.get("description", "")
        if not isinstance(description, str):
            raise Malformed(Reason.WRONG_TYPE, "status description must be a string")
        span["status"] = {"code": _STATUS[code], "message": description}
    events = []
    for event in _list(obj.get("events"), "events"):
        event_obj = _object(event, "event")
        events.append(
            {
                "name": event_obj.get("name", ""),
                "timeUnixNano": str(parse_time_ns(event_obj.get("timestamp"), "event timestamp")),
                "attributes": key_values(
                    _object(event_obj.get("attributes"), "event attributes"), limits
                ),
            }
        )
    if events:
        span["events"] = events
    links = []
    for link in _list(obj.get("links"), "links"):
        link_obj = _object(link, "link")
        link_context = _object(link_obj.get("context"), "link context")
        links.append(
            {
                "traceId": _hex_id(link_context.get("trace_id", ""), "link trace_id"),
                "spanId": _hex_id(link_context.get("span_id", ""), "link span_id"),
                "traceState": _trace_state(link_context.get("trace_state")),
                "attributes": key_values(
                    _object(link_obj.get("attributes"), "link attributes"), limits
                ),
            }
        )
    if links:
        span["links"] = links
    resource = _object(obj.get("resource"), "resource")
    resource_attributes = key_values(
        _object(resource.get("attributes"), "resource attributes"), limits
    )
    # The console exporter writes no instrumentation scope: ScopeName stays ''.
    return one_span_request(span, resource=resource_attributes)


def iter_units(stream: io.BufferedReader, ctx: ReadContext) -> Iterator[NativeItem]:
    """Each object of the stream converted to a :class:`NativeUnit`, or a rejection."""
    limits = ctx.limits
    for item in iter_json_objects(stream, ctx):
        if isinstance(item, Rejection | Checkpoint):
            yield item
            continue
        data, position = item
        parsed = parse_json(data, position, limits, allow_constants=True)
        if isinstance(parsed, Rejection):
            yield parsed
            continue
        try:
            request = convert_span(parsed, limits)
        except Malformed as bad:
            yield _rejection(bad, parsed, data, position, limits)
            continue
        except RecursionError:
            yield Rejection(
                Reason.TOO_DEEPLY_NESTED,
                "values nest too deeply",
                data[: limits.excerpt_bytes],
                position,
            )
            continue
        yield NativeUnit(request, data[: limits.excerpt_bytes], position)


def _rejection(
    bad: Malformed, parsed: Any, data: bytes, position: Position, limits: DecodeLimits
) -> Rejection:
    trace_id = span_id = ""
    context = parsed.get("context") if isinstance(parsed, dict) else None
    if isinstance(context, dict):
        for key in ("trace_id", "span_id"):
            value = context.get(key)
            if isinstance(value, str) and len(value) <= 66:
                if key == "trace_id":
                    trace_id = value.removeprefix("0x").lower()
                else:
                    span_id = value.removeprefix("0x").lower()
    return Rejection(
        bad.reason,
        bad.detail,
        data[: limits.excerpt_bytes],
        position,
        trace_id=trace_id,
        span_id=span_id,
    )


FORMAT: Final = Format(
    name=NAME,
    summary="OTel Python ConsoleSpanExporter output: concatenated pretty-printed span JSON",
    read=make_reader(iter_units),
    sniff=sniff_otel_python_console,
    resumable=True,
)
