"""Constants and value encoding shared by both OTLP wire formats (``pcommon.Value.AsString``)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

from ...records import (
    DecodeLimits,
    Position,
    Reason,
    Rejection,
    SpanRow,
)

Item = SpanRow | Rejection


SPAN_KIND_NAMES: Final[Mapping[int, str]] = {
    0: "Unspecified",
    1: "Internal",
    2: "Server",
    3: "Client",
    4: "Producer",
    5: "Consumer",
}


"""``SpanKind`` as the ClickHouse exporter stores it (``ptrace.SpanKind.String()``)."""


STATUS_CODE_NAMES: Final[Mapping[int, str]] = {0: "Unset", 1: "Ok", 2: "Error"}


"""``Status.code`` as the ClickHouse exporter stores it (``ptrace.StatusCode.String()``)."""


"""Digits of the widest OTLP integer (uint64): more, after leading zeros, is out of range."""


class BadValue(Exception):
    """Internal: the current span (or unit) is malformed; carries the quarantine reason."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class _Unsupported(Exception):
    """Internal: Go's json.Marshal would fail (NaN/Inf inside an array or kvlist)."""


def format_double(value: float) -> str:
    """A double as the Collector's ``float64AsString`` writes it (ES6 number style).

    Shortest round-trip digits; plain notation unless ``abs`` is below 1e-6 or
    at least 1e21, then ``1e+21`` / ``1.5e-7`` (no zero padding of negative
    exponents). NaN and infinities become the exporter's literal
    ``json: unsupported value: NaN`` / ``+Inf`` / ``-Inf``.
    """
    text = repr(value)
    if "e" not in text and "n" not in text:
        # repr writes plain notation only for 1e-4 <= abs < 1e16, inside ES6's
        # plain range, with the same shortest digits: just drop a trailing ".0"
        # ("-0.0" -> "-0" too). "n" catches nan and inf.
        return text[:-2] if text.endswith(".0") else text
    return _format_double_exact(value)


def _format_double_exact(value: float) -> str:
    """:func:`format_double` for every double, from the digits of ``repr``."""
    if math.isnan(value):
        return "json: unsupported value: NaN"
    if math.isinf(value):
        return "json: unsupported value: " + ("+Inf" if value > 0 else "-Inf")
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    sign, digits, exponent = Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)
    # repr() gives the shortest digits that round-trip; drop trailing zeros so
    # "100.0" and "1e+16" both become (1,) with the right exponent.
    digit_list = list(digits)
    while len(digit_list) > 1 and digit_list[-1] == 0:
        digit_list.pop()
        exponent += 1
    magnitude = abs(value)
    prefix = "-" if sign else ""
    if magnitude < 1e-6 or magnitude >= 1e21:
        mantissa = str(digit_list[0])
        if len(digit_list) > 1:
            mantissa += "." + "".join(map(str, digit_list[1:]))
        exp10 = exponent + len(digit_list) - 1
        exp_text = f"+{exp10:02d}" if exp10 >= 0 else f"-{-exp10}"
        return f"{prefix}{mantissa}e{exp_text}"
    text = "".join(map(str, digit_list))
    if exponent >= 0:
        return prefix + text + "0" * exponent
    point = len(text) + exponent
    if point > 0:
        return prefix + text[:point] + "." + text[point:]
    return prefix + "0." + "0" * (-point) + text


_HTML_ESCAPES: Final = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


# json's own string encoder with ensure_ascii=False: escapes quotes, backslashes
# and control characters only, keeping UTF-8 text as Go does. orjson.dumps
# escapes strings exactly the same way (checked for every ASCII character) and
# is several times faster on lists; it refuses lone surrogates, which the json
# encoder passes through.
encode_basestring: Final[Callable[[str], str]] = json.encoder.encode_basestring


def html_escape(text: str) -> str:
    """Go's json.Marshal also escapes HTML-significant characters and the JS line separators.

    These can only occur inside JSON strings, so translating encoded text is
    safe; most texts hold none, and the check is far cheaper than translate.
    """
    if "<" in text or ">" in text or "&" in text or "\u2028" in text or "\u2029" in text:
        return text.translate(_HTML_ESCAPES)
    return text


def _go_json_string(text: str) -> str:
    return html_escape(encode_basestring(text))


def _go_json(value: object) -> str:
    """Go ``json.Marshal`` of a ``pcommon`` raw value (``AsRaw()``): sorted keys, compact.

    Bytes were already turned into their base64 text (as Go marshals
    ``[]byte``). Only doubles need this slow path; see :func:`composite_as_string`.
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise _Unsupported
        return format_double(value)
    if isinstance(value, str):
        return _go_json_string(value)
    if isinstance(value, list):
        return "[" + ",".join(_go_json(item) for item in value) + "]"
    if isinstance(value, dict):
        members = (_go_json_string(key) + ":" + _go_json(value[key]) for key in sorted(value))
        return "{" + ",".join(members) + "}"
    raise TypeError(f"unexpected raw value {type(value).__name__}")  # pragma: no cover


def composite_as_string(raw: object, has_double: bool) -> str:
    """``AsString`` of an array or kvlist: Go's ``json.Marshal`` of its raw value.

    Without doubles, Python's encoder already writes what Go writes (compact,
    sorted keys, UTF-8 kept) once the HTML characters are escaped; doubles
    need Go's number format. pcommon ignores json.Marshal's error, so an array
    holding NaN becomes "".
    """
    if not has_double:
        text = json.dumps(raw, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return html_escape(text)
    try:
        return _go_json(raw)
    except _Unsupported:
        return ""


def too_large(text: str, limits: DecodeLimits, key: str) -> BadValue | None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= limits.max_attribute_bytes:
        return None
    return BadValue(
        Reason.ATTRIBUTE_TOO_LARGE,
        f"attribute {key!r} is {size} bytes, over the {limits.max_attribute_bytes}-byte cap "
        "(raise it with --max-attribute-bytes)",
    )


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def row_has_lone_surrogate(row: SpanRow) -> bool:
    strings: list[str] = [
        row.name,
        row.trace_state,
        row.service_name,
        row.scope_name,
        row.scope_version,
        row.status_message,
    ]
    for mapping in (row.resource_attributes, row.scope_attributes, row.attributes):
        strings.extend(mapping.keys())
        strings.extend(mapping.values())
    for event in row.events:
        strings.append(event.name)
        strings.extend(event.attributes.keys())
        strings.extend(event.attributes.values())
    for link in row.links:
        strings.append(link.trace_state)
        strings.extend(link.attributes.keys())
        strings.extend(link.attributes.values())
    return any(_has_lone_surrogate(text) for text in strings)


def excerpt_json(obj: Any, limit: int) -> str:
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(obj)
    return text[: limit * 2]


@dataclass(frozen=True, slots=True)
class ScopeInfo:
    resource_attributes: Mapping[str, str]
    service_name: str
    scope_name: str
    scope_version: str
    scope_attributes: Mapping[str, str]


def too_many_spans(
    count: int, limits: DecodeLimits, data: bytes, *, at_least: bool = False
) -> Rejection:
    held = f"more than {limits.max_request_spans}" if at_least else str(count)
    return Rejection(
        Reason.RECORD_TOO_LARGE,
        f"the request holds {held} spans, over --max-request-spans {limits.max_request_spans}: "
        "send smaller batches (e.g. BatchSpanProcessor max_export_batch_size)",
        data[: limits.excerpt_bytes],
        Position(),
    )
