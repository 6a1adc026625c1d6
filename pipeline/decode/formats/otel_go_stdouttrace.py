"""OTel Go ``stdouttrace`` exporter output: one JSON-encoded ``tracetest.SpanStub`` per span.

The exporter hands each span stub to Go's ``json.Encoder`` (tab-indented with
``WithPrettyPrint()``, one object per line without it). Field names are the
Go struct's: ``Name``, ``SpanContext``/``Parent`` (``TraceID``, ``SpanID``
as hex, ``TraceFlags``, ``TraceState``, ``Remote``), ``SpanKind`` (an int,
same numbering as OTLP), ``StartTime``/``EndTime`` (RFC 3339 with
nanoseconds), ``Attributes`` and ``Resource`` as ``[{"Key", "Value":
{"Type", "Value"}}]``, ``Events`` (``Name``, ``Time``, ``Attributes``),
``Links`` (``SpanContext``, ``Attributes``), ``Status`` (``Code`` as
``"Unset"``/``"Error"``/``"Ok"``, ``Description``) and
``InstrumentationScope`` / the deprecated ``InstrumentationLibrary``
(``Name``, ``Version``, ``SchemaURL``). Each stub is converted to an OTLP
JSON request and decoded by the OTLP decoder (see ``_native``). See
``docs/formats.md``.
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
    make_reader,
    one_span_request,
    parse_json,
    parse_time_ns,
)

__all__ = ["FORMAT", "convert_stub", "iter_units", "sniff_otel_go_stdouttrace"]

NAME: Final = "otel_go_stdouttrace"

# codes.Code marshals as its name; as a bare number (a non-addressable value)
# it uses the Go SDK's own numbering, where Error is 1 and Ok is 2 (OTLP swaps them).
_STATUS_NAMES: Final = {"Unset": 0, "Error": 2, "Ok": 1}
_STATUS_GO_NUMBERS: Final = {0: 0, 1: 2, 2: 1}
_SLICE_ELEMENT: Final = {
    "BOOLSLICE": "BOOL",
    "INT64SLICE": "INT64",
    "FLOAT64SLICE": "FLOAT64",
    "STRINGSLICE": "STRING",
}
_SNIFF: Final = re.compile(rb'"SpanContext"\s*:\s*\{\s*"TraceID"')
_ZERO_TIME_PREFIX: Final = "0001-01-01T00:00:00"


def sniff_otel_go_stdouttrace(head: bytes, source_name: str) -> int:
    """2 when the first object has a ``SpanContext`` with a ``TraceID``."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] == b"{" and _SNIFF.search(head):
        return 2
    return 0


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Malformed(Reason.WRONG_TYPE, f"{what} must be an object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if value is None:  # a nil Go slice marshals as null
        return []
    if not isinstance(value, list):
        raise Malformed(Reason.WRONG_TYPE, f"{what} must be an array")
    return value


def _string(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Malformed(Reason.WRONG_TYPE, f"{what} must be a string")
    return value


def _scalar(kind: str, value: Any, key: str) -> dict[str, Any]:
    if kind == "BOOL" and isinstance(value, bool):
        return {"boolValue": value}
    if kind == "INT64" and isinstance(value, int) and not isinstance(value, bool):
        return {"intValue": str(value)}
    if kind == "FLOAT64" and isinstance(value, int | float) and not isinstance(value, bool):
        return {"doubleValue": float(value)}
    if kind == "STRING" and isinstance(value, str):
        return {"stringValue": value}
    raise Malformed(
        Reason.WRONG_TYPE, f"attribute {key!r}: a {kind} value cannot be {type(value).__name__}"
    )


def _value(raw: Any, key: str) -> dict[str, Any]:
    """``attribute.Value`` JSON (``{"Type": "INT64", "Value": 3}``) as an OTLP ``AnyValue``."""
    value = _object(raw, f"attribute {key!r} value")
    kind = value.get("Type")
    if not isinstance(kind, str):
        raise Malformed(Reason.WRONG_TYPE, f"attribute {key!r} has no Type")
    payload = value.get("Value")
    if kind in _SLICE_ELEMENT:
        element = _SLICE_ELEMENT[kind]
        items = _list(payload, f"attribute {key!r} {kind}")
        return {"arrayValue": {"values": [_scalar(element, item, key) for item in items]}}
    if kind in ("INVALID", "EMPTY"):
        return {}
    if kind in ("BOOL", "INT64", "FLOAT64", "STRING"):
        return _scalar(kind, payload, key)
    raise Malformed(Reason.INVALID_VALUE, f"attribute {key!r} has an unknown Type {kind[:40]!r}")


def _attributes(raw: Any, what: str) -> list[dict[str, Any]]:
    result = []
    for entry in _list(raw, what):
        entry_obj = _object(entry, f"{what} entry")
        key = entry_obj.get("Key")
        if not isinstance(key, str):
            raise Malformed(Reason.WRONG_TYPE, f"{what} Key must be a string")
        result.append({"key": key, "value": _value(entry_obj.get("Value"), key)})
    return result


def _time(value: Any, what: str) -> str:
    if isinstance(value, str) and value.startswith(_ZERO_TIME_PREFIX):
        raise Malformed(
            Reason.MISSING_TIMESTAMP,
            f"{what} is Go's zero time: the exporter ran with WithoutTimestamps()",
        )
    return str(parse_time_ns(value, what))


def _status(raw: Any) -> dict[str, Any]:
    status = _object(raw, "Status")
    code = status.get("Code", "Unset")
    if isinstance(code, str) and code in _STATUS_NAMES:
        number = _STATUS_NAMES[code]
    elif isinstance(code, int) and not isinstance(code, bool) and code in _STATUS_GO_NUMBERS:
        number = _STATUS_GO_NUMBERS[code]
    else:
        raise Malformed(Reason.INVALID_VALUE, f"Status.Code {str(code)[:40]!r} is not a code")
    return {"code": number, "message": _string(status.get("Description"), "Status.Description")}


def _scope(stub: Mapping[str, Any]) -> dict[str, Any]:
    scope = _object(stub.get("InstrumentationScope"), "InstrumentationScope")
    if not any(scope.get(k) for k in ("Name", "Version", "SchemaURL")):
        # Older releases wrote only InstrumentationLibrary (same fields).
        scope = _object(stub.get("InstrumentationLibrary"), "InstrumentationLibrary") or scope
    result: dict[str, Any] = {
        "name": _string(scope.get("Name"), "scope Name"),
        "version": _string(scope.get("Version"), "scope Version"),
    }
    attributes = _attributes(scope.get("Attributes"), "scope Attributes")
    if attributes:
        result["attributes"] = attributes
    return result


def convert_stub(obj: Any, limits: DecodeLimits) -> dict[str, Any]:
    """One span stub as an OTLP JSON request; :class:`Malformed` if it is not one."""
    if not isinstance(obj, dict):
        raise Malformed(Reason.WRONG_TYPE, "a span stub must be a JSON object")
    context = _object(obj.get("SpanContext"), "SpanContext")
    if not context:
        raise Malformed(Reason.INVALID_ID, "SpanContext (TraceID, SpanID) is missing")
    parent = _object(obj.get("Parent"), "Parent")
    kind = obj.get("SpanKind", 0)
    if not isinstance(kind, int) or isinstance(kind, bool):
        raise Malformed(Reason.WRONG_TYPE, "SpanKind must be an integer")
    span: dict[str, Any] = {
        "traceId": _string(context.get("TraceID"), "SpanContext.TraceID"),
        "spanId": _string(context.get("SpanID"), "SpanContext.SpanID"),
        # An all-zero parent SpanID is a root span; the OTLP decoder stores it as ''.
        "parentSpanId": _string(parent.get("SpanID"), "Parent.SpanID"),
        "traceState": _string(context.get("TraceState"), "SpanContext.TraceState"),
        "name": _string(obj.get("Name"), "Name"),
        "kind": kind,
        "startTimeUnixNano": _time(obj.get("StartTime"), "StartTime"),
        "endTimeUnixNano": _time(obj.get("EndTime"), "EndTime"),
        "attributes": _attributes(obj.get("Attributes"), "Attributes"),
        "status": _status(obj.get("Status")),
    }
    events = []
    for event in _list(obj.get("Events"), "Events"):
        event_obj = _object(event, "event")
        events.append(
            {
                "name": _string(event_obj.get("Name"), "event Name"),
                "timeUnixNano": _time(event_obj.get("Time"), "event Time"),
                "attributes": _attributes(event_obj.get("Attributes"), "event Attributes"),
            }
        )
    if events:
        span["events"] = events
    links = []
    for link in _list(obj.get("Links"), "Links"):
        link_obj = _object(link, "link")
        link_context = _object(link_obj.get("SpanContext"), "link SpanContext")
        links.append(
            {
                "traceId": _string(link_context.get("TraceID"), "link TraceID"),
                "spanId": _string(link_context.get("SpanID"), "link SpanID"),
                "traceState": _string(link_context.get("TraceState"), "link TraceState"),
                "attributes": _attributes(link_obj.get("Attributes"), "link Attributes"),
            }
        )
    if links:
        span["links"] = links
    return one_span_request(
        span, resource=_attributes(obj.get("Resource"), "Resource"), scope=_scope(obj)
    )


def iter_units(stream: io.BufferedReader, ctx: ReadContext) -> Iterator[NativeItem]:
    """Each span stub of the stream converted to a :class:`NativeUnit`, or a rejection."""
    limits = ctx.limits
    for item in iter_json_objects(stream, ctx):
        if isinstance(item, Rejection | Checkpoint):
            yield item
            continue
        data, position = item
        parsed = parse_json(data, position, limits)
        if isinstance(parsed, Rejection):
            yield parsed
            continue
        try:
            request = convert_stub(parsed, limits)
        except Malformed as bad:
            yield _rejection(bad, parsed, data, position, limits)
            continue
        yield NativeUnit(request, data[: limits.excerpt_bytes], position)


def _rejection(
    bad: Malformed, parsed: Any, data: bytes, position: Position, limits: DecodeLimits
) -> Rejection:
    trace_id = span_id = ""
    context = parsed.get("SpanContext") if isinstance(parsed, dict) else None
    if isinstance(context, dict):
        trace = context.get("TraceID")
        span = context.get("SpanID")
        trace_id = trace.lower() if isinstance(trace, str) and len(trace) <= 64 else ""
        span_id = span.lower() if isinstance(span, str) and len(span) <= 64 else ""
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
    summary="OTel Go stdouttrace exporter output: concatenated (pretty-printed) SpanStub JSON",
    read=make_reader(iter_units),
    sniff=sniff_otel_go_stdouttrace,
    resumable=True,
)
