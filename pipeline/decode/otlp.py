"""OTLP trace requests (JSON and protobuf) to :class:`SpanRow` records.

Two entry points per encoding: :func:`iter_json_request` walks a parsed OTLP
JSON ``ExportTraceServiceRequest`` and :func:`iter_proto_request` a protobuf
one; both yield a :class:`SpanRow` per good span and a :class:`Rejection` per
bad one, so one broken span never costs its neighbours. The receiver uses
:func:`decode_request_body` on raw HTTP bodies.

OTLP JSON is *not* proto3 canonical JSON: ids are hex, not base64, so
``google.protobuf.json_format`` would silently produce wrong ids. Everything
here reads the JSON by hand and accepts what the Collector accepts (see
``docs/ingest.md``). Values are encoded the way the Collector's ClickHouse
exporter writes them (``pcommon.Value.AsString``), see ``docs/storage.md``.
"""

from __future__ import annotations

import base64
import binascii
import collections
import contextlib
import functools
import itertools
import json
import math
import re
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final, TypeVar

import orjson
from google.protobuf.message import DecodeError, Message
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, InstrumentationScope, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from ..errors import IngestError
from ..records import (
    DEFAULT_LIMITS,
    EMPTY_ATTRIBUTES,
    DecodeLimits,
    EventRow,
    LinkRow,
    Position,
    Reason,
    Rejection,
    SpanRow,
)

__all__ = [
    "SPAN_KIND_NAMES",
    "STATUS_CODE_NAMES",
    "DecodedBody",
    "ParsedJson",
    "decode_json_bytes",
    "decode_proto_bytes",
    "decode_request_body",
    "format_double",
    "iter_json_request",
    "iter_parsed_request",
    "iter_proto_request",
    "parse_json",
]

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

_KIND_TEXT: Final = tuple(SPAN_KIND_NAMES[number] for number in range(6))

# Enum names a JSON sender may use instead of numbers (the Collector accepts both).
_KIND_ENUM: Final = {
    "SPAN_KIND_UNSPECIFIED": 0,
    "SPAN_KIND_INTERNAL": 1,
    "SPAN_KIND_SERVER": 2,
    "SPAN_KIND_CLIENT": 3,
    "SPAN_KIND_PRODUCER": 4,
    "SPAN_KIND_CONSUMER": 5,
}
_STATUS_ENUM: Final = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}

_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1
_UINT64_MAX: Final = 2**64 - 1
_INT32_MIN: Final = -(2**31)
_INT32_MAX: Final = 2**31 - 1

_HEX_RE: Final = re.compile(r"[0-9a-fA-F]*")
_TRACE_ID_OK: Final = re.compile(r"[0-9a-f]{32}").fullmatch
_SPAN_ID_OK: Final = re.compile(r"[0-9a-f]{16}").fullmatch
_ZERO_TRACE_ID: Final = "0" * 32
_ZERO_SPAN_ID: Final = "0" * 16
_INT_RE: Final = re.compile(r"[+-]?[0-9]+")
_MAX_INT_DIGITS: Final = len(str(_UINT64_MAX))
"""Digits of the widest OTLP integer (uint64): more, after leading zeros, is out of range."""
# What Go's strconv.ParseFloat accepts for a quoted double, minus hex floats.
_FLOAT_RE: Final = re.compile(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)",
    re.IGNORECASE,
)
_BASE64ISH_RE: Final = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")


class _Bad(Exception):
    """Internal: the current span (or unit) is malformed; carries the quarantine reason."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class _Unsupported(Exception):
    """Internal: Go's json.Marshal would fail (NaN/Inf inside an array or kvlist)."""


# --------------------------------------------------------------------------
# Value encoding shared by both wire formats (pcommon.Value.AsString).


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
_encode_basestring: Final[Callable[[str], str]] = json.encoder.encode_basestring
_orjson_dumps: Final = orjson.dumps


def _html_escape(text: str) -> str:
    """Go's json.Marshal also escapes HTML-significant characters and the JS line separators.

    These can only occur inside JSON strings, so translating encoded text is
    safe; most texts hold none, and the check is far cheaper than translate.
    """
    if "<" in text or ">" in text or "&" in text or "\u2028" in text or "\u2029" in text:
        return text.translate(_HTML_ESCAPES)
    return text


def _go_json_string(text: str) -> str:
    return _html_escape(_encode_basestring(text))


def _go_json(value: object) -> str:
    """Go ``json.Marshal`` of a ``pcommon`` raw value (``AsRaw()``): sorted keys, compact.

    Bytes were already turned into their base64 text (as Go marshals
    ``[]byte``). Only doubles need this slow path; see :func:`_composite_as_string`.
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


def _composite_as_string(raw: object, has_double: bool) -> str:
    """``AsString`` of an array or kvlist: Go's ``json.Marshal`` of its raw value.

    Without doubles, Python's encoder already writes what Go writes (compact,
    sorted keys, UTF-8 kept) once the HTML characters are escaped; doubles
    need Go's number format. pcommon ignores json.Marshal's error, so an array
    holding NaN becomes "".
    """
    if not has_double:
        text = json.dumps(raw, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return _html_escape(text)
    try:
        return _go_json(raw)
    except _Unsupported:
        return ""


def _too_large(text: str, limits: DecodeLimits, key: str) -> _Bad | None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= limits.max_attribute_bytes:
        return None
    return _Bad(
        Reason.ATTRIBUTE_TOO_LARGE,
        f"attribute {key!r} is {size} bytes, over the {limits.max_attribute_bytes}-byte cap "
        "(raise it with --max-attribute-bytes)",
    )


# --------------------------------------------------------------------------
# OTLP JSON.


def _get(obj: Mapping[str, Any], camel: str, snake: str) -> Any:
    value = obj.get(camel)
    if value is None and snake != camel:
        value = obj.get(snake)
    return value


def _expect_obj(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return EMPTY_ATTRIBUTES
    if not isinstance(value, dict):
        raise _Bad(Reason.WRONG_TYPE, f"{what} must be an object, got {_json_type(value)}")
    return value


def _expect_list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Bad(Reason.WRONG_TYPE, f"{what} must be an array, got {_json_type(value)}")
    return value


def _expect_str(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _Bad(Reason.WRONG_TYPE, f"{what} must be a string, got {_json_type(value)}")
    return value


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _json_int(value: Any, what: str, lo: int, hi: int) -> int:
    """An integer sent as a JSON number or a decimal string (proto3 JSON allows both).

    A string is never handed to ``int()`` whole: Python refuses to convert
    more than 4,300 digits (``sys.get_int_max_str_digits``) with a
    ``ValueError``, and no OTLP integer needs more than 20. Leading zeros are
    dropped first, as Go's ``strconv`` reads ``"007"`` as 7.
    """
    if type(value) is int:
        number = value
    elif type(value) is str:
        if not (value.isascii() and value.isdigit()) and not _INT_RE.fullmatch(value):
            raise _Bad(Reason.INVALID_VALUE, f"{what} {value[:40]!r} is not an integer")
        digits = value.lstrip("+-").lstrip("0")
        if len(digits) > _MAX_INT_DIGITS:
            raise _Bad(
                Reason.INVALID_VALUE,
                f"{what} {value[:24]!r}{'...' if len(value) > 24 else ''} is an integer of "
                f"{len(digits)} digits, out of range [{lo}, {hi}]",
            )
        number = -int(digits or "0") if value[0] == "-" else int(digits or "0")
    else:
        raise _Bad(Reason.WRONG_TYPE, f"{what} must be an integer, got {_json_type(value)}")
    if not lo <= number <= hi:
        raise _Bad(
            Reason.INVALID_VALUE, f"{what} {_int_excerpt(number)} is out of range [{lo}, {hi}]"
        )
    return number


def _int_excerpt(number: int) -> str:
    """``number`` in decimal, or its size when its digits are too many to be worth reading."""
    if -(10**40) < number < 10**40:
        return str(number)
    # Counted from the bits: str() of a JSON number literal is bounded by the
    # parser's own 4,300-digit limit, but the detail needs none of them.
    return f"(an integer of about {int(number.bit_length() * math.log10(2)) + 1} digits)"


def _json_uint64(value: Any, what: str) -> int:
    if value is None:
        return 0
    # The common case: a plain decimal string no longer than uint64's.
    if type(value) is str and len(value) <= _MAX_INT_DIGITS and value.isascii() and value.isdigit():
        number = int(value)
        if number <= _UINT64_MAX:
            return number
    return _json_int(value, what, 0, _UINT64_MAX)


def _json_double(value: Any, what: str) -> float:
    if type(value) is float:
        return value
    if type(value) is int:
        try:
            return float(value)
        except OverflowError:  # an integer literal with hundreds of digits
            raise _Bad(Reason.INVALID_VALUE, f"{what} is out of range for a double") from None
    if isinstance(value, str):
        if not _FLOAT_RE.fullmatch(value):
            raise _Bad(Reason.INVALID_VALUE, f"{what} {value[:40]!r} is not a number")
        return float(value)
    raise _Bad(Reason.WRONG_TYPE, f"{what} must be a number, got {_json_type(value)}")


def _json_enum(value: Any, names: Mapping[str, int], what: str) -> int:
    if value is None:
        return 0
    if type(value) is int and _INT32_MIN <= value <= _INT32_MAX:
        return value
    if isinstance(value, str) and not _INT_RE.fullmatch(value):
        if value not in names:
            raise _Bad(Reason.INVALID_VALUE, f"{what} {value[:40]!r} is not a known name")
        return names[value]
    return _json_int(value, what, _INT32_MIN, _INT32_MAX)


def _json_id(value: Any, size: int, what: str, *, required: bool) -> str:
    """Hex id -> lower-case hex, validated; '' for an absent optional (or all-zero) id."""
    text = _expect_str(value, what)
    if not text:
        if required:
            raise _Bad(Reason.INVALID_ID, f"{what} is missing")
        return ""
    if len(text) != 2 * size or not _HEX_RE.fullmatch(text):
        hint = ""
        if len(text) == 4 * ((size + 2) // 3) and _BASE64ISH_RE.fullmatch(text):
            hint = (
                " (it looks like base64: the producer wrote proto3 canonical JSON, "
                "but OTLP JSON ids are hex)"
            )
        raise _Bad(Reason.INVALID_ID, f"{what} {text[:64]!r} is not {2 * size} hex digits{hint}")
    lowered = text.lower()
    if lowered.count("0") == len(lowered):
        if required:
            raise _Bad(Reason.INVALID_ID, f"{what} is all zero (an invalid id)")
        return ""
    return lowered


# AnyValue field name (camelCase or snake_case) -> which member of the oneof.
_STRING, _BOOL, _INT, _DOUBLE, _BYTES, _ARRAY, _KVLIST = range(7)
_VALUE_FIELDS: Final = {
    "stringValue": _STRING,
    "string_value": _STRING,
    "boolValue": _BOOL,
    "bool_value": _BOOL,
    "intValue": _INT,
    "int_value": _INT,
    "doubleValue": _DOUBLE,
    "double_value": _DOUBLE,
    "bytesValue": _BYTES,
    "bytes_value": _BYTES,
    "arrayValue": _ARRAY,
    "array_value": _ARRAY,
    "kvlistValue": _KVLIST,
    "kvlist_value": _KVLIST,
}


def _canonical_int(text: str) -> bool:
    """Whether ``text`` is an int64 already written as ``str(int(text))`` would write it.

    Up to 18 digits, no sign but ``-``, no leading zero: what exporters send.
    """
    digits = text[1:] if text[:1] == "-" else text
    return (
        0 < len(digits) <= 18
        and digits.isdigit()
        and digits.isascii()
        and (digits[0] != "0" or text == "0")
    )


def _simple_array_text(body: dict[str, Any]) -> str | None:
    """Go's JSON text of an ``arrayValue`` of only strings or only canonical ints; else ``None``.

    These are nearly all arrays exporters write; anything else (mixed
    items, doubles, nesting, odd shapes) goes through the general path.
    """
    values = body.get("values")
    if type(values) is not list or len(body) != 1:
        return None
    if not values:
        return "[]"
    first = values[0]
    if type(first) is not dict:
        return None
    parts: list[str] = []
    if "stringValue" in first:
        for item in values:
            if type(item) is not dict or len(item) != 1:
                return None
            text = item.get("stringValue")
            if type(text) is not str:
                return None
            parts.append(text)
        try:
            return _html_escape(_orjson_dumps(parts).decode())
        except TypeError:  # a lone surrogate: orjson refuses, json passes it through
            return _html_escape("[" + ",".join(map(_encode_basestring, parts)) + "]")
    if "intValue" in first:
        for item in values:
            if type(item) is not dict or len(item) != 1:
                return None
            text = item.get("intValue")
            if type(text) is not str or not _canonical_int(text):
                return None
            parts.append(text)
        return "[" + ",".join(parts) + "]"
    return None


def _one_of(value: Any, key: str) -> tuple[int, Any]:
    """(member, payload) of an ``AnyValue`` object; (-1, None) when empty.

    The value is a oneof: like the Collector's reader, the last member wins;
    unknown fields are skipped.
    """
    if type(value) is not dict:
        if value is None:
            return -1, None
        raise _Bad(Reason.WRONG_TYPE, f"attribute {key!r} value must be an object")
    member, payload = -1, None
    for name, field_value in value.items():
        found = _VALUE_FIELDS.get(name)
        if found is not None and field_value is not None:
            member, payload = found, field_value
    return member, payload


class _JsonValues:
    """Decodes OTLP JSON ``AnyValue`` objects with the limits of one decode."""

    __slots__ = ("cap", "depth", "has_double", "limits", "short")

    def __init__(self, limits: DecodeLimits) -> None:
        self.limits = limits
        self.cap = limits.max_attribute_bytes
        # A text of at most cap // 4 characters is at most cap UTF-8 bytes:
        # such values need no size check.
        self.short = self.cap // 4
        self.depth = limits.max_nesting_depth
        self.has_double = False

    def as_string(self, value: Any, key: str) -> tuple[str, bool]:
        """(``AsString`` text, whether it was a ``stringValue``)."""
        if type(value) is dict and len(value) == 1:
            # Fast paths for the shapes exporters write most.
            payload = value.get("stringValue")
            if type(payload) is str:
                if len(payload) * 4 > self.cap:
                    bad = _too_large(payload, self.limits, key)
                    if bad is not None:
                        raise bad
                return payload, True
            payload = value.get("intValue")
            if (
                type(payload) is str
                and len(payload) <= _MAX_INT_DIGITS
                and payload.isascii()
                and payload.isdigit()
            ):
                number = int(payload)
                if number <= _INT64_MAX:
                    return str(number), False
            payload = value.get("boolValue")
            if payload is True:
                return "true", False
            if payload is False:
                return "false", False
            payload = value.get("arrayValue")
            if type(payload) is dict:
                text = _simple_array_text(payload)
                if text is not None:
                    if len(text) * 4 > self.cap:
                        bad = _too_large(text, self.limits, key)
                        if bad is not None:
                            raise bad
                    return text, False
        member, payload = _one_of(value, key)
        is_str = False
        if member == _STRING:
            if type(payload) is not str:
                raise _Bad(Reason.WRONG_TYPE, f"attribute {key!r} stringValue must be a string")
            text, is_str = payload, True
        elif member == _INT:
            text = str(_json_int(payload, f"attribute {key!r}", _INT64_MIN, _INT64_MAX))
        elif member == _BOOL:
            if type(payload) is not bool:
                raise _Bad(Reason.WRONG_TYPE, f"attribute {key!r} boolValue must be a boolean")
            text = "true" if payload else "false"
        elif member == _DOUBLE:
            text = format_double(_json_double(payload, f"attribute {key!r}"))
        elif member == _BYTES:
            text = self._base64(payload, key)
        elif member in (_ARRAY, _KVLIST):
            self.has_double = False
            raw = self._raw(member, payload, key, 1)
            text = _composite_as_string(raw, self.has_double)
        else:
            return "", False
        # Most values are short: only measure UTF-8 length when the character
        # count says the value could be over the cap.
        if len(text) * 4 > self.cap:
            bad = _too_large(text, self.limits, key)
            if bad is not None:
                raise bad
        return text, is_str

    def _base64(self, value: Any, key: str) -> str:
        """Validated base64 of a ``bytesValue``, re-encoded canonically (as Go writes it)."""
        if type(value) is not str:
            raise _Bad(Reason.WRONG_TYPE, f"attribute {key!r} bytesValue must be a string")
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise _Bad(
                Reason.INVALID_VALUE, f"attribute {key!r} bytesValue is not standard base64"
            ) from None
        return base64.b64encode(raw).decode("ascii")

    def _raw(self, member: int, payload: Any, key: str, depth: int) -> object:
        """One ``AnyValue`` member -> the Go ``AsRaw()`` equivalent (bytes as base64 text)."""
        if member == _STRING:
            if type(payload) is not str:
                raise _Bad(Reason.WRONG_TYPE, f"attribute {key!r} stringValue must be a string")
            return payload
        if member == _INT:
            return _json_int(payload, f"attribute {key!r}", _INT64_MIN, _INT64_MAX)
        if member == _BOOL:
            if type(payload) is not bool:
                raise _Bad(Reason.WRONG_TYPE, f"attribute {key!r} boolValue must be a boolean")
            return payload
        if member == _DOUBLE:
            self.has_double = True
            return _json_double(payload, f"attribute {key!r}")
        if member == _BYTES:
            return self._base64(payload, key)
        if member == -1:
            return None
        if depth > self.depth:
            raise _Bad(
                Reason.TOO_DEEPLY_NESTED,
                f"attribute {key!r} nests deeper than {self.depth} levels",
            )
        body = _expect_obj(
            payload, f"attribute {key!r} {'arrayValue' if member == _ARRAY else 'kvlistValue'}"
        )
        entries = _expect_list(body.get("values"), f"attribute {key!r} values")
        if member == _ARRAY:
            return [self._raw(*_one_of(item, key), key, depth + 1) for item in entries]
        mapping: dict[str, object] = {}
        for entry in entries:
            if type(entry) is not dict:
                raise _Bad(Reason.WRONG_TYPE, f"attribute {key!r} kvlist entries must be objects")
            inner_key = _expect_str(entry.get("key"), "kvlist key")
            mapping[inner_key] = self._raw(*_one_of(entry.get("value"), key), key, depth + 1)
        return mapping

    def encode(self, value: Any, what: str) -> Mapping[str, str]:
        """An OTLP JSON attribute list -> the exporter's map (a repeated key keeps the last value).

        This loop runs for every attribute of every span, so the shapes
        exporters write (``{"key": k, "value": {"stringValue": s}}``, canonical
        decimal ``intValue`` strings, booleans) are handled inline; anything
        else goes through :meth:`as_string`, which has every check and message.
        """
        if type(value) is not list:
            if value is None:
                return EMPTY_ATTRIBUTES
            raise _Bad(Reason.WRONG_TYPE, f"{what} must be an array, got {_json_type(value)}")
        if not value:
            return EMPTY_ATTRIBUTES
        result: dict[str, str] = {}
        short = self.short
        for kv in value:
            try:
                key = kv["key"]
                # One member exactly: with more, the oneof's last one wins (slow path).
                ((member, payload),) = kv["value"].items()
            except (TypeError, KeyError, ValueError, AttributeError):
                pass  # not an object, a missing key or value, an empty value: slow path
            else:
                if type(key) is str:
                    if member == "stringValue":
                        if type(payload) is str and len(payload) <= short:
                            result[key] = payload
                            continue
                    elif member == "intValue":
                        # Up to 18 digits without a leading zero: already the
                        # canonical int64 text, which str(int(...)) would give back.
                        if (
                            type(payload) is str
                            and 0 < len(payload) <= 18
                            and len(payload) <= short
                            and payload.isdigit()
                            and payload.isascii()
                            and (payload[0] != "0" or len(payload) == 1)
                        ):
                            result[key] = payload
                            continue
                    elif member == "boolValue" and short >= 5:
                        if payload is True:
                            result[key] = "true"
                            continue
                        if payload is False:
                            result[key] = "false"
                            continue
                    elif member == "arrayValue":
                        if type(payload) is dict:
                            text = _simple_array_text(payload)
                            if text is not None and len(text) <= short:
                                result[key] = text
                                continue
                    elif member == "doubleValue" and type(payload) is float:
                        text = format_double(payload)
                        if len(text) <= short:
                            result[key] = text
                            continue
            if type(kv) is not dict:
                raise _Bad(Reason.WRONG_TYPE, f"{what} entries must be objects")
            key = kv.get("key")
            if type(key) is not str:
                key = _expect_str(key, f"{what} key")
            result[key] = self.as_string(kv.get("value"), key)[0]
        return result

    def attributes(self, value: Any, what: str) -> tuple[Mapping[str, str], str]:
        """(encoded map, first ``service.name`` string value or '')."""
        encoded = self.encode(value, what)
        if "service.name" not in encoded:
            return encoded, ""
        # ServiceName comes from Map.Get, which finds the *first* service.name
        # (the map keeps the last), and only a stringValue counts.
        for kv in value:
            if type(kv) is dict and kv.get("key") == "service.name":
                text, is_str = self.as_string(kv.get("value"), "service.name")
                return encoded, text if is_str else ""
        return encoded, ""  # pragma: no cover - the key is in the map, so some entry has it


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _row_has_lone_surrogate(row: SpanRow) -> bool:
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


def _excerpt_json(obj: Any, limit: int) -> str:
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(obj)
    return text[: limit * 2]


@dataclass(frozen=True, slots=True)
class _Scope:
    resource_attributes: Mapping[str, str]
    service_name: str
    scope_name: str
    scope_version: str
    scope_attributes: Mapping[str, str]


def iter_json_request(
    request: Any,
    *,
    limits: DecodeLimits = DEFAULT_LIMITS,
    line: int | None = None,
    byte_offset: int | None = None,
    check_surrogates: bool = True,
    repeated_keys: Mapping[int, tuple[str, ...]] | None = None,
) -> Iterator[Item]:
    """Yield a row or a rejection for every span in a parsed OTLP JSON request.

    ``line``/``byte_offset`` locate the request in its source for quarantine
    rows. ``check_surrogates`` re-checks strings for JSON ``\\ud800``-style
    escapes that decode to text DuckDB cannot store; callers that know the raw
    text has no ``\\u`` escape of a surrogate can switch it off for speed.
    ``repeated_keys`` (from :func:`parse_json_text`) names the objects that
    repeat a key: the record holding one is quarantined as ``duplicate_key``.
    """
    values = _JsonValues(limits)
    span_index = 0
    repeated = repeated_keys or None

    def reject_unit(bad: _Bad) -> Rejection:
        return Rejection(
            bad.reason,
            bad.detail,
            _excerpt_json(request, limits.excerpt_bytes),
            Position(line=line, byte_offset=byte_offset),
        )

    if not isinstance(request, dict):
        yield reject_unit(
            _Bad(
                Reason.WRONG_TYPE,
                f"an ExportTraceServiceRequest must be an object, got {_json_type(request)}",
            )
        )
        return
    try:
        if repeated:
            _check_keys(request, repeated, "the request", _REQUEST_PARTS)
        resource_spans = _expect_list(
            _get(request, "resourceSpans", "resource_spans"), "resourceSpans"
        )
    except _Bad as bad:
        yield reject_unit(bad)
        return

    for rs in resource_spans:
        # Errors above the span level (a bad resource or scope) quarantine each
        # span under it, so the counts stay per span; if even the span list is
        # unreadable the enclosing object is one quarantined record.
        try:
            rs_obj = _expect_obj(rs, "resourceSpans entry")
            if repeated:
                _check_keys(rs_obj, repeated, "resourceSpans entry", _RESOURCE_SPANS_PARTS)
            scope_groups = _expect_list(_get(rs_obj, "scopeSpans", "scope_spans"), "scopeSpans")
            legacy = _get(rs_obj, "instrumentationLibrarySpans", "instrumentation_library_spans")
            if legacy is not None:
                scope_groups = scope_groups + _expect_list(legacy, "instrumentationLibrarySpans")
        except _Bad as bad:
            yield Rejection(
                bad.reason,
                bad.detail,
                _excerpt_json(rs, limits.excerpt_bytes),
                Position(line=line, byte_offset=byte_offset, span_index=span_index),
            )
            span_index += 1
            continue
        resource_error: _Bad | None = None
        resource_attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
        service_name = ""
        try:
            resource = _expect_obj(rs_obj.get("resource"), "resource")
            if repeated:
                _check_keys(resource, repeated, "resource")
            resource_attributes, service_name = values.attributes(
                resource.get("attributes"), "resource attributes"
            )
        except _Bad as bad:
            resource_error = _Bad(bad.reason, "resource: " + bad.detail)
        except RecursionError:
            resource_error = _Bad(Reason.TOO_DEEPLY_NESTED, "resource attributes nest too deeply")

        for ss in scope_groups:
            try:
                ss_obj = _expect_obj(ss, "scopeSpans entry")
                if repeated:
                    _check_keys(ss_obj, repeated, "scopeSpans entry", _SCOPE_SPANS_PARTS)
                spans = _expect_list(ss_obj.get("spans"), "spans")
            except _Bad as bad:
                yield Rejection(
                    bad.reason,
                    bad.detail,
                    _excerpt_json(ss, limits.excerpt_bytes),
                    Position(line=line, byte_offset=byte_offset, span_index=span_index),
                )
                span_index += 1
                continue
            scope_error = resource_error
            scope: _Scope | None = None
            if scope_error is None:
                try:
                    scope_raw = ss_obj.get("scope")
                    if scope_raw is None:  # before OTLP 0.15 the scope was a "library"
                        scope_raw = _get(
                            ss_obj, "instrumentationLibrary", "instrumentation_library"
                        )
                    scope_obj = _expect_obj(scope_raw, "scope")
                    if repeated:
                        _check_keys(scope_obj, repeated, "scope")
                    scope_attributes = values.encode(
                        scope_obj.get("attributes"), "scope attributes"
                    )
                    scope = _Scope(
                        resource_attributes,
                        service_name,
                        _expect_str(scope_obj.get("name"), "scope name"),
                        _expect_str(scope_obj.get("version"), "scope version"),
                        scope_attributes,
                    )
                except _Bad as bad:
                    scope_error = _Bad(bad.reason, "scope: " + bad.detail)
                except RecursionError:
                    scope_error = _Bad(Reason.TOO_DEEPLY_NESTED, "scope attributes nest too deeply")
            for span in spans:
                position = Position(line, byte_offset, span_index)
                span_index += 1
                try:
                    if scope_error is not None:
                        raise scope_error
                    assert scope is not None
                    if repeated:
                        _check_keys(span, repeated, "span")
                    row = _json_span(span, scope, values, position)
                    if check_surrogates and _row_has_lone_surrogate(row):
                        raise _Bad(
                            Reason.INVALID_UTF8,
                            "a string holds a lone UTF-16 surrogate escape (e.g. \\ud800), "
                            "which is not valid Unicode text",
                        )
                except _Bad as bad:
                    yield _span_rejection(span, bad.reason, bad.detail, position, limits)
                    continue
                except RecursionError:
                    yield _span_rejection(
                        span,
                        Reason.TOO_DEEPLY_NESTED,
                        "attribute values nest too deeply",
                        position,
                        limits,
                    )
                    continue
                yield row


# Members of the request, a resourceSpans and a scopeSpans entry that are
# records (or hold records) of their own: a repeat inside one is charged there.
_REQUEST_PARTS: Final = frozenset({"resourceSpans", "resource_spans"})
_RESOURCE_SPANS_PARTS: Final = frozenset(
    {
        "resource",
        "scopeSpans",
        "scope_spans",
        "instrumentationLibrarySpans",
        "instrumentation_library_spans",
    }
)
_SCOPE_SPANS_PARTS: Final = frozenset(
    {"scope", "instrumentationLibrary", "instrumentation_library", "spans"}
)
_NO_PARTS: Final[frozenset[str]] = frozenset()


def _check_keys(
    obj: Any,
    repeated: Mapping[int, tuple[str, ...]],
    where: str,
    parts: frozenset[str] = _NO_PARTS,
) -> None:
    """Raise ``duplicate_key`` if ``obj`` or any object in it names a key twice.

    RFC 8259 leaves the meaning of such an object to the parser; Python's
    ``json`` and orjson keep the last value, protobuf's JSON parser refuses
    the message, the Collector's reader merges or overwrites field by field.
    Storing any one of the values would guess, so the record is quarantined.
    Members named in ``parts`` are checked as records of their own.
    """
    stack: list[tuple[Any, str, frozenset[str]]] = [(obj, where, parts)]
    while stack:
        value, path, skip = stack.pop()
        children: list[tuple[Any, str, frozenset[str]]]
        if type(value) is dict:
            keys = repeated.get(id(value))
            if keys:
                raise _Bad(
                    Reason.DUPLICATE_KEY,
                    f"{path} has the key {keys[0][:64]!r} more than once: JSON object keys "
                    "must be unique, or which value is meant is ambiguous (RFC 8259)",
                )
            children = [(v, f"{path}.{k}", _NO_PARTS) for k, v in value.items() if k not in skip]
        elif type(value) is list:
            children = [(v, f"{path}[{i}]", _NO_PARTS) for i, v in enumerate(value)]
        else:
            continue
        stack.extend(reversed(children))  # depth first, in document order


def _span_rejection(
    span: Any, reason: Reason, detail: str, position: Position, limits: DecodeLimits
) -> Rejection:
    trace_id = span_id = ""
    if isinstance(span, dict):
        for key, camel, snake in (("t", "traceId", "trace_id"), ("s", "spanId", "span_id")):
            candidate = _get(span, camel, snake)
            if isinstance(candidate, str) and len(candidate) <= 64:
                if key == "t":
                    trace_id = candidate.lower()
                else:
                    span_id = candidate.lower()
    return Rejection(
        reason,
        detail,
        _excerpt_json(span, limits.excerpt_bytes),
        position,
        trace_id=trace_id,
        span_id=span_id,
    )


def _json_span(span: Any, scope: _Scope, values: _JsonValues, position: Position) -> SpanRow:
    if type(span) is not dict:
        raise _Bad(Reason.WRONG_TYPE, f"a span must be an object, got {_json_type(span)}")
    get = span.get
    # camelCase is what every exporter writes; snake_case is the fallback.
    trace_raw = get("traceId")
    if trace_raw is None:
        trace_raw = get("trace_id")
    span_raw = get("spanId")
    if span_raw is None:
        span_raw = get("span_id")
    parent_raw = get("parentSpanId")
    if parent_raw is None:
        parent_raw = get("parent_span_id")
    # Fast path: lower-case hex of the right length, not all zero (what
    # exporters write); anything else gets _json_id's checks and messages.
    if type(trace_raw) is str and _TRACE_ID_OK(trace_raw) and trace_raw != _ZERO_TRACE_ID:
        trace_id = trace_raw
    else:
        trace_id = _json_id(trace_raw, 16, "traceId", required=True)
    if type(span_raw) is str and _SPAN_ID_OK(span_raw) and span_raw != _ZERO_SPAN_ID:
        span_id = span_raw
    else:
        span_id = _json_id(span_raw, 8, "spanId", required=True)
    if parent_raw is None:
        parent = ""
    elif type(parent_raw) is str and _SPAN_ID_OK(parent_raw) and parent_raw != _ZERO_SPAN_ID:
        parent = parent_raw
    else:
        parent = _json_id(parent_raw, 8, "parentSpanId", required=False)
    attributes = values.encode(get("attributes"), "span attributes")
    status = get("status")
    if status:
        status = _expect_obj(status, "status")
        status_number = _json_enum(status.get("code"), _STATUS_ENUM, "status code")
        status_message = _expect_str(status.get("message"), "status message")
    else:
        if status is not None and type(status) is not dict:
            raise _Bad(Reason.WRONG_TYPE, f"status must be an object, got {_json_type(status)}")
        status_number, status_message = 0, ""
    kind_raw = get("kind")
    if type(kind_raw) is int and 0 <= kind_raw <= 5:
        kind = _KIND_TEXT[kind_raw]
    else:
        kind = SPAN_KIND_NAMES.get(_json_enum(kind_raw, _KIND_ENUM, "kind"), "")
    name = get("name")
    if type(name) is not str:
        name = _expect_str(name, "name")
    trace_state = get("traceState")
    if trace_state is None:
        trace_state = get("trace_state")
    if type(trace_state) is not str:
        trace_state = _expect_str(trace_state, "traceState")
    start_raw = get("startTimeUnixNano")
    if start_raw is None:
        start_raw = get("start_time_unix_nano")
    end_raw = get("endTimeUnixNano")
    if end_raw is None:
        end_raw = get("end_time_unix_nano")

    events: tuple[EventRow, ...] = ()
    raw_events = get("events")
    if raw_events:
        event_list: list[EventRow] = []
        for event in _expect_list(raw_events, "events"):
            event_obj = _expect_obj(event, "event")
            event_attributes = values.encode(event_obj.get("attributes"), "event attributes")
            event_list.append(
                EventRow(
                    _json_uint64(_get(event_obj, "timeUnixNano", "time_unix_nano"), "event time"),
                    _expect_str(event_obj.get("name"), "event name"),
                    event_attributes,
                )
            )
        events = tuple(event_list)
    elif raw_events is not None and type(raw_events) is not list:
        raise _Bad(Reason.WRONG_TYPE, f"events must be an array, got {_json_type(raw_events)}")
    links: tuple[LinkRow, ...] = ()
    raw_links = get("links")
    if raw_links:
        link_list: list[LinkRow] = []
        for link in _expect_list(raw_links, "links"):
            link_obj = _expect_obj(link, "link")
            link_attributes = values.encode(link_obj.get("attributes"), "link attributes")
            link_list.append(
                LinkRow(
                    _json_id(
                        _get(link_obj, "traceId", "trace_id"), 16, "link traceId", required=False
                    ),
                    _json_id(_get(link_obj, "spanId", "span_id"), 8, "link spanId", required=False),
                    _expect_str(_get(link_obj, "traceState", "trace_state"), "link traceState"),
                    link_attributes,
                )
            )
        links = tuple(link_list)
    elif raw_links is not None and type(raw_links) is not list:
        raise _Bad(Reason.WRONG_TYPE, f"links must be an array, got {_json_type(raw_links)}")
    # Positional: keyword arguments cost a measurable share of a span's decode.
    return SpanRow(
        trace_id,
        span_id,
        parent,
        name,
        kind,
        _json_uint64(start_raw, "startTimeUnixNano"),
        _json_uint64(end_raw, "endTimeUnixNano"),
        trace_state,
        scope.service_name,
        scope.resource_attributes,
        scope.scope_name,
        scope.scope_version,
        scope.scope_attributes,
        attributes,
        STATUS_CODE_NAMES.get(status_number, ""),
        status_message,
        events,
        links,
        position,
    )


_orjson_loads: Final = orjson.loads
_OrjsonError: Final = orjson.JSONDecodeError
_OrjsonEncodeError: Final = orjson.JSONEncodeError


class _NonJsonConstant(ValueError):
    """Internal: a ``NaN``/``Infinity`` literal, which Python's json accepts and JSON does not."""


def _reject_constant(name: str) -> Any:
    raise _NonJsonConstant(f'{name} is not valid JSON (use a string, e.g. "NaN")')


def _may_hold_surrogate_escape(text: str) -> bool:
    return "\\ud" in text or "\\uD" in text


def parse_json_text(
    data: bytes,
    position: Position,
    limits: DecodeLimits,
    *,
    allow_constants: bool = False,
    repeated_keys: dict[int, tuple[str, ...]] | None = None,
) -> tuple[Any, bool] | Rejection:
    """bytes -> (parsed JSON, may hold surrogate escapes) or a Rejection saying why not.

    ``allow_constants`` accepts bare ``NaN`` / ``Infinity`` (Python's
    ``json.dumps`` writes them; strict JSON and Go never do). With a
    ``repeated_keys`` dict, every object that names a key twice is entered
    in it (``id()`` of the object -> the repeated keys); the object keeps
    the last value, as always.
    """
    excerpt = data[: limits.excerpt_bytes]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return Rejection(
            Reason.INVALID_UTF8,
            f"byte {error.start} is not valid UTF-8 ({error.reason})",
            excerpt,
            position,
        )
    if text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte-order mark some editors write
    try:
        constants = None if allow_constants else _reject_constant
        hook = None if repeated_keys is None else _keeping_repeats(repeated_keys)
        value = json.loads(text, parse_constant=constants, object_pairs_hook=hook)
        return value, _may_hold_surrogate_escape(text)
    except json.JSONDecodeError as error:
        # Cut off: the parser ran out of text, or a string never closed (it
        # would be closed later in the text otherwise).
        if error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string"):
            return Rejection(
                Reason.TRUNCATED_JSON,
                f"JSON ends early ({error.msg}): the record was cut off",
                excerpt,
                position,
            )
        return Rejection(
            Reason.INVALID_JSON,
            f"{error.msg} at line {error.lineno} column {error.colno}",
            excerpt,
            position,
        )
    except RecursionError:
        return Rejection(Reason.TOO_DEEPLY_NESTED, "JSON nests too deeply", excerpt, position)
    except _NonJsonConstant as error:
        return Rejection(Reason.INVALID_JSON, str(error), excerpt, position)
    except ValueError as error:  # integers with thousands of digits
        return Rejection(Reason.INVALID_VALUE, str(error)[:200], excerpt, position)


def decode_json_bytes(
    data: bytes,
    *,
    limits: DecodeLimits = DEFAULT_LIMITS,
    line: int | None = None,
    byte_offset: int | None = None,
) -> Iterator[Item]:
    """Rows and rejections from the bytes of one OTLP JSON request."""
    position = Position(line=line, byte_offset=byte_offset)
    if len(data) > limits.max_record_bytes:
        yield Rejection(
            Reason.RECORD_TOO_LARGE,
            f"record is {len(data)} bytes, over the {limits.max_record_bytes}-byte cap "
            "(raise it with --max-record-bytes)",
            data[: limits.excerpt_bytes],
            position,
        )
        return
    parsed = parse_json(data, position, limits)
    if isinstance(parsed, Rejection):
        yield parsed
        return
    yield from iter_parsed_request(parsed, limits=limits, line=line, byte_offset=byte_offset)


@dataclass(frozen=True, slots=True)
class ParsedJson:
    """One parsed OTLP JSON unit (a line or a document), and how it was parsed.

    ``fast`` means orjson parsed ``data``; otherwise the ``json`` module did,
    and ``maybe_surrogates`` says whether the text may hold ``\\ud800``-style
    escapes (orjson refuses those, so its results never hold them).
    ``repeated_keys`` maps ``id()`` of every object in ``value`` that named a
    key more than once to those keys (only ``json`` can see them: both
    parsers keep the last value); a fast unit has none.
    """

    value: Any
    data: bytes
    position: Position
    fast: bool
    maybe_surrogates: bool = False
    repeated_keys: Mapping[int, tuple[str, ...]] | None = None


def parse_json(data: bytes, position: Position, limits: DecodeLimits) -> ParsedJson | Rejection:
    """bytes -> :class:`ParsedJson`, with orjson; or a Rejection saying why not.

    orjson parses several times faster than ``json``. Whatever it refuses
    (syntax errors, invalid UTF-8, a byte-order mark, lone surrogate escapes,
    ``NaN``, numbers beyond a double) is handed to :func:`parse_json_text`,
    which accepts what it always accepted and words every rejection as before.
    So is a text that may name a key twice in one object (orjson keeps the
    last value without a word), so that the repeats are known.
    """
    try:
        value = _orjson_loads(data)
    except _OrjsonError:
        value = _UNREAD
    else:
        if not _may_repeat_keys(data, value):
            return ParsedJson(value, data, position, fast=True)
    repeated: dict[int, tuple[str, ...]] = {}
    parsed = parse_json_text(data, position, limits, repeated_keys=repeated)
    if value is not _UNREAD and (isinstance(parsed, Rejection) or not repeated):
        # No key repeats after all, or json refuses what orjson read (nesting
        # near Python's recursion limit): orjson's reading stands.
        return ParsedJson(value, data, position, fast=True)
    if isinstance(parsed, Rejection):
        return parsed
    return ParsedJson(
        parsed[0],
        data,
        position,
        fast=False,
        maybe_surrogates=parsed[1],
        repeated_keys=repeated or None,
    )


_UNREAD: Final = object()


def _may_repeat_keys(data: bytes, value: Any) -> bool:
    """Whether the JSON text ``data``, which orjson read as ``value``, may repeat a key.

    Written back by orjson, ``value`` has one ``:`` per key it kept plus the
    ``:`` inside its strings. ``data`` has one per key it sent plus the same
    ``:`` inside strings, less those it escaped as ``\\u003a``; so with those
    added back, more colons in ``data`` means a key was dropped, and equal
    counts mean none was. Never a false "no".

    Exporters write compact JSON as orjson does, so the usual cost is one
    ``orjson.dumps`` (about a quarter of the parse's time) and a comparison.
    """
    try:
        written = _orjson_dumps(value)
    except _OrjsonEncodeError:  # nesting orjson reads (1,024 levels) but will not write (254)
        return True
    if data.startswith(written):
        return False  # orjson's own text (and a newline): every key was kept
    colons = data.count(b":")
    # Any JSON text escapes at least the characters orjson escapes, each
    # with a backslash: without extra backslashes there is no \u003a either.
    if data.count(b"\\") != written.count(b"\\") and b"u003" in data:
        colons += data.count(b"\\u003a") + data.count(b"\\u003A")
    return colons != written.count(b":")


def _keeping_repeats(found: dict[int, tuple[str, ...]]) -> Callable[[list[Any]], dict[str, Any]]:
    """A ``json`` object hook that builds the dict as ``json`` does and notes repeated keys."""

    def pairs_to_dict(pairs: list[Any]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            counts = collections.Counter(key for key, _ in pairs)
            found[id(obj)] = tuple(key for key, count in counts.items() if count > 1)
        return obj

    return pairs_to_dict


def iter_parsed_request(
    parsed: ParsedJson,
    *,
    limits: DecodeLimits = DEFAULT_LIMITS,
    line: int | None = None,
    byte_offset: int | None = None,
) -> Iterator[Item]:
    """:func:`iter_json_request` over a :func:`parse_json` result.

    orjson and ``json`` build the same objects except for one thing: orjson
    reads an integer beyond 64 bits as a float, where ``json`` keeps the int.
    No stored row can tell (such a value is either a double anyway or makes
    its span bad), but a quarantine reason or excerpt can (``wrong_type``
    instead of ``invalid_value``). So at the first rejection the unit is
    parsed again with ``json``, and decoding carries on from that record:
    records before it were good rows, the same under both parsers.
    """
    if not parsed.fast:
        yield from iter_json_request(
            parsed.value,
            limits=limits,
            line=line,
            byte_offset=byte_offset,
            check_surrogates=parsed.maybe_surrogates,
            repeated_keys=parsed.repeated_keys,
        )
        return
    done = 0
    items = iter_json_request(
        parsed.value, limits=limits, line=line, byte_offset=byte_offset, check_surrogates=False
    )
    for item in items:
        if type(item) is Rejection:
            break
        yield item
        done += 1
    else:
        return
    exact = parse_json_text(parsed.data, parsed.position, limits)
    if isinstance(exact, Rejection):
        # json refuses what orjson read (nesting near Python's recursion
        # limit): keep orjson's reading rather than drop rows already sent.
        yield item
        yield from items
        return
    again = iter_json_request(
        exact[0],
        limits=limits,
        line=line,
        byte_offset=byte_offset,
        check_surrogates=exact[1],
    )
    yield from itertools.islice(again, done, None)


# --------------------------------------------------------------------------
# OTLP protobuf.


class _ProtoValues:
    __slots__ = ("cap", "depth", "has_double", "limits")

    def __init__(self, limits: DecodeLimits) -> None:
        self.limits = limits
        self.cap = limits.max_attribute_bytes
        self.depth = limits.max_nesting_depth
        self.has_double = False

    def as_string(self, value: AnyValue, key: str) -> tuple[str, bool]:
        which = value.WhichOneof("value")
        is_str = False
        if which == "string_value":
            text, is_str = value.string_value, True
        elif which == "int_value":
            text = str(value.int_value)
        elif which == "bool_value":
            text = "true" if value.bool_value else "false"
        elif which == "double_value":
            text = format_double(value.double_value)
        elif which == "bytes_value":
            text = base64.b64encode(value.bytes_value).decode("ascii")
        elif which in ("array_value", "kvlist_value"):
            self.has_double = False
            raw = self._raw(value, key, 0)
            text = _composite_as_string(raw, self.has_double)
        else:
            return "", False
        if len(text) * 4 > self.cap:
            bad = _too_large(text, self.limits, key)
            if bad is not None:
                raise bad
        return text, is_str

    def _raw(self, value: AnyValue, key: str, depth: int) -> object:
        which = value.WhichOneof("value")
        if which == "string_value":
            return value.string_value
        if which == "int_value":
            return value.int_value
        if which == "bool_value":
            return value.bool_value
        if which == "double_value":
            self.has_double = True
            return value.double_value
        if which == "bytes_value":
            return base64.b64encode(value.bytes_value).decode("ascii")
        if which is None:
            return None
        if depth >= self.depth:
            raise _Bad(
                Reason.TOO_DEEPLY_NESTED,
                f"attribute {key!r} nests deeper than {self.depth} levels",
            )
        if which == "array_value":
            return [self._raw(item, key, depth + 1) for item in value.array_value.values]
        return {kv.key: self._raw(kv.value, key, depth + 1) for kv in value.kvlist_value.values}

    def attributes(self, items: Sequence[KeyValue]) -> tuple[Mapping[str, str], str]:
        if not items:
            return EMPTY_ATTRIBUTES, ""
        result: dict[str, str] = {}
        service_name: str | None = None
        for kv in items:
            key = kv.key
            text, is_str = self.as_string(kv.value, key)
            result[key] = text
            if key == "service.name" and service_name is None:
                service_name = text if is_str else ""
        return result, service_name or ""


def _proto_id(raw: bytes, size: int, what: str, *, required: bool) -> str:
    if not raw:
        if required:
            raise _Bad(Reason.INVALID_ID, f"{what} is missing")
        return ""
    if len(raw) != size:
        raise _Bad(Reason.INVALID_ID, f"{what} is {len(raw)} bytes, not {size}")
    if raw.count(0) == size:
        if required:
            raise _Bad(Reason.INVALID_ID, f"{what} is all zero (an invalid id)")
        return ""
    return raw.hex()


def _proto_excerpt(message: Any, limit: int) -> str:
    """A readable excerpt of a protobuf span, with ids as hex (not base64)."""
    from google.protobuf import json_format

    try:
        data = json_format.MessageToDict(message)
    except Exception:  # an excerpt must never turn a rejection into a crash
        return repr(message)[: limit * 2]

    def fix(obj: Any) -> Any:
        if isinstance(obj, dict):
            fixed = {}
            for key, value in obj.items():
                if key in ("traceId", "spanId", "parentSpanId") and isinstance(value, str):
                    with contextlib.suppress(binascii.Error, ValueError):
                        value = base64.b64decode(value).hex()
                fixed[key] = fix(value)
            return fixed
        if isinstance(obj, list):
            return [fix(item) for item in obj]
        return obj

    return _excerpt_json(fix(data), limit)


def iter_proto_request(
    request: ExportTraceServiceRequest,
    *,
    limits: DecodeLimits = DEFAULT_LIMITS,
    byte_offset: int | None = None,
) -> Iterator[Item]:
    """Yield a row or a rejection for every span of a decoded protobuf request."""
    return _iter_proto(request, limits=limits, byte_offset=byte_offset, lenient=False)


def _iter_proto(
    request: Any, *, limits: DecodeLimits, byte_offset: int | None, lenient: bool
) -> Iterator[Item]:
    """:func:`iter_proto_request` over a strict request, or a :func:`_lenient_classes` one.

    A lenient request holds its strings as bytes: each resource, scope and
    span is checked for UTF-8 and turned into its OTLP message on its own,
    so invalid text quarantines only what holds it.
    """
    values = _ProtoValues(limits)
    span_index = 0
    for rs in request.resource_spans:
        resource_error: _Bad | None = None
        resource_attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
        service_name = ""
        resource = rs.resource
        if lenient:
            resource, problem = _strict_message(resource, Resource)
            if problem is not None:
                resource_error = _Bad(Reason.INVALID_UTF8, f"resource: {problem}")
        if resource_error is None:
            try:
                resource_attributes, service_name = values.attributes(resource.attributes)
            except _Bad as bad:
                resource_error = _Bad(bad.reason, "resource: " + bad.detail)
        for ss in rs.scope_spans:
            scope_error = resource_error
            scope: _Scope | None = None
            scope_message = ss.scope
            if lenient and scope_error is None:
                scope_message, problem = _strict_message(scope_message, InstrumentationScope)
                if problem is not None:
                    scope_error = _Bad(Reason.INVALID_UTF8, f"scope: {problem}")
            if scope_error is None:
                try:
                    scope_attributes, _ = values.attributes(scope_message.attributes)
                    scope = _Scope(
                        resource_attributes,
                        service_name,
                        scope_message.name,
                        scope_message.version,
                        scope_attributes,
                    )
                except _Bad as bad:
                    scope_error = _Bad(bad.reason, "scope: " + bad.detail)
            for span in ss.spans:
                position = Position(byte_offset=byte_offset, span_index=span_index)
                span_index += 1
                problem = None
                if lenient:
                    span, problem = _strict_message(span, Span)
                try:
                    if scope_error is not None:
                        raise scope_error
                    if problem is not None:
                        raise _Bad(Reason.INVALID_UTF8, problem)
                    assert scope is not None
                    yield _proto_span(span, scope, values, position)
                except _Bad as bad:
                    yield Rejection(
                        bad.reason,
                        bad.detail,
                        _proto_excerpt(span, limits.excerpt_bytes),
                        position,
                        trace_id=span.trace_id.hex() if len(span.trace_id) == 16 else "",
                        span_id=span.span_id.hex() if len(span.span_id) == 8 else "",
                    )


# proto3 requires string fields to hold UTF-8, and the protobuf runtime refuses
# a whole message when one does not: one span with a broken name would cost
# every span of its request. Such a request is parsed again with each string
# field declared as bytes (the wire format is the same), and each resource,
# scope and span is then checked and converted on its own.


@dataclass(frozen=True, slots=True)
class _Lenient:
    """``ExportTraceServiceRequest`` with ``bytes`` for ``string``, and which fields those are."""

    request: Callable[[], Message]
    string_fields: frozenset[str]
    """Full names (``opentelemetry.proto.trace.v1.Span.name``) of the OTLP string fields."""


@functools.cache
def _lenient_classes() -> _Lenient:
    """Built on first use: only a request with invalid UTF-8 ever needs it."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    string_fields: set[str] = set()
    added: set[str] = set()

    def relax(messages: Any, scope: str) -> None:
        for message in messages:
            name = f"{scope}.{message.name}" if scope else message.name
            for field in message.field:
                if field.type == descriptor_pb2.FieldDescriptorProto.TYPE_STRING:
                    field.type = descriptor_pb2.FieldDescriptorProto.TYPE_BYTES
                    string_fields.add(f"{name}.{field.name}")
            relax(message.nested_type, name)

    def add(file: Any) -> None:
        if file.name in added:
            return
        for dependency in file.dependencies:
            add(dependency)
        proto = descriptor_pb2.FileDescriptorProto()
        file.CopyToProto(proto)
        relax(proto.message_type, proto.package)
        pool.AddSerializedFile(proto.SerializeToString())
        added.add(file.name)

    add(ExportTraceServiceRequest.DESCRIPTOR.file)
    descriptor = pool.FindMessageTypeByName(ExportTraceServiceRequest.DESCRIPTOR.full_name)
    return _Lenient(message_factory.GetMessageClass(descriptor), frozenset(string_fields))


_M = TypeVar("_M", bound=Message)


def _strict_message(lenient: Any, kind: type[_M]) -> tuple[_M, str | None]:
    """A lenient message as its OTLP ``kind``, and where its first invalid UTF-8 text is.

    Invalid text is replaced by ``\\xNN`` escapes in the returned message,
    which only serves as the quarantine excerpt then.
    """
    copy = type(lenient)()
    copy.CopyFrom(lenient)
    problem = _repair_text(copy, "", _lenient_classes().string_fields)
    return kind.FromString(copy.SerializeToString()), problem


def _is_repeated(field: Any) -> bool:
    """``is_repeated`` where the protobuf runtime has it (``label`` is gone in protobuf 7)."""
    repeated = getattr(field, "is_repeated", None)
    if repeated is None:
        return bool(field.label == field.LABEL_REPEATED)
    return bool(repeated)


def _item_label(item: Any, index: int) -> str:
    """An attribute (``KeyValue``) by its key when that is text, anything else by index."""
    if isinstance(item, Message) and item.DESCRIPTOR.full_name == KeyValue.DESCRIPTOR.full_name:
        with contextlib.suppress(UnicodeDecodeError):
            return repr(item.key.decode("utf-8"))
    return str(index)


def _repair_text(message: Any, path: str, string_fields: frozenset[str]) -> str | None:
    """Escape invalid UTF-8 in ``message``'s string fields in place; describe the first one."""
    first: str | None = None
    for field, value in message.ListFields():
        where = f"{path}.{field.name}" if path else field.name
        repeated = _is_repeated(field)
        items = list(value) if repeated else [value]
        for index, item in enumerate(items):
            at = f"{where}[{_item_label(item, index)}]" if repeated else where
            if field.full_name in string_fields:
                try:
                    item.decode("utf-8")
                except UnicodeDecodeError as error:
                    fixed = item.decode("utf-8", "backslashreplace").encode("utf-8")
                    if repeated:
                        value[index] = fixed
                    else:
                        setattr(message, field.name, fixed)
                    first = first or (
                        f"{at} is not UTF-8 text (byte {error.start}: {error.reason}), "
                        "as protobuf requires of a string"
                    )
            elif field.message_type is not None:
                found = _repair_text(item, at, string_fields)
                first = first or found
    return first


def _proto_span(span: Any, scope: _Scope, values: _ProtoValues, position: Position) -> SpanRow:
    trace_id = _proto_id(span.trace_id, 16, "traceId", required=True)
    span_id = _proto_id(span.span_id, 8, "spanId", required=True)
    parent = _proto_id(span.parent_span_id, 8, "parentSpanId", required=False)
    attributes, _ = values.attributes(span.attributes)
    events = tuple(
        EventRow(event.time_unix_nano, event.name, values.attributes(event.attributes)[0])
        for event in span.events
    )
    links = tuple(
        LinkRow(
            _proto_id(link.trace_id, 16, "link traceId", required=False),
            _proto_id(link.span_id, 8, "link spanId", required=False),
            link.trace_state,
            values.attributes(link.attributes)[0],
        )
        for link in span.links
    )
    return SpanRow(
        trace_id=trace_id,
        span_id=span_id,
        parent_span_id=parent,
        name=span.name,
        kind=SPAN_KIND_NAMES.get(span.kind, ""),
        start_time_unix_nano=span.start_time_unix_nano,
        end_time_unix_nano=span.end_time_unix_nano,
        trace_state=span.trace_state,
        service_name=scope.service_name,
        resource_attributes=scope.resource_attributes,
        scope_name=scope.scope_name,
        scope_version=scope.scope_version,
        scope_attributes=scope.scope_attributes,
        attributes=attributes,
        status_code=STATUS_CODE_NAMES.get(span.status.code, ""),
        status_message=span.status.message,
        events=events,
        links=links,
        position=position,
    )


def decode_proto_bytes(
    data: bytes, *, limits: DecodeLimits = DEFAULT_LIMITS, byte_offset: int | None = None
) -> Iterator[Item]:
    """Rows and rejections from the bytes of one protobuf ``ExportTraceServiceRequest``."""
    position = Position(byte_offset=byte_offset)
    if len(data) > limits.max_record_bytes:
        yield Rejection(
            Reason.RECORD_TOO_LARGE,
            f"protobuf message is {len(data)} bytes, over the {limits.max_record_bytes}-byte "
            "cap (raise it with --max-record-bytes)",
            data[: limits.excerpt_bytes],
            position,
        )
        return
    if limits.max_request_spans is not None:
        # Counted on the wire first: an oversized request is refused before
        # its parsed message (about 2.4x its bytes) is ever built.
        wire_count = proto_span_count(data, stop_after=limits.max_request_spans)
        if wire_count is not None and wire_count > limits.max_request_spans:
            yield _too_many_spans(wire_count, limits, data, at_least=True)
            return
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(data)
    except (DecodeError, RecursionError, ValueError) as error:
        # Perhaps only text that is not UTF-8: then only what holds it is bad.
        lenient = _lenient_classes().request()
        try:
            lenient.ParseFromString(data)
        except (DecodeError, RecursionError, ValueError):
            yield Rejection(
                Reason.INVALID_PROTOBUF,
                f"not an OTLP ExportTraceServiceRequest: {error}"[:300],
                data[: limits.excerpt_bytes],
                position,
            )
            return
        if (count := _over_span_cap(lenient, limits)) is not None:
            yield _too_many_spans(count, limits, data)
            return
        yield from _iter_proto(lenient, limits=limits, byte_offset=byte_offset, lenient=True)
        return
    if (count := _over_span_cap(request, limits)) is not None:
        yield _too_many_spans(count, limits, data)
        return
    yield from iter_proto_request(request, limits=limits, byte_offset=byte_offset)


def _over_span_cap(request: Any, limits: DecodeLimits) -> int | None:
    """The request's span count when it is over ``max_request_spans``, else ``None``."""
    if limits.max_request_spans is None:
        return None
    count = sum(len(scope.spans) for rs in request.resource_spans for scope in rs.scope_spans)
    return count if count > limits.max_request_spans else None


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    """The varint at ``at`` and the offset after it; ``IndexError``/``ValueError`` if malformed."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes")


def _length_delimited(data: bytes, start: int, end: int, field: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each length-delimited ``field`` between ``start`` and ``end``.

    Other fields are skipped by wire type; ``ValueError``/``IndexError`` on bytes
    that are not protobuf (the parser then says what is wrong).
    """
    at = start
    while at < end:
        key, at = _read_varint(data, at)
        wire_type = key & 7
        if wire_type == 0:
            _, at = _read_varint(data, at)
        elif wire_type == 1:
            at += 8
        elif wire_type == 5:
            at += 4
        elif wire_type == 2:
            length, at = _read_varint(data, at)
            if at + length > end:
                raise ValueError("field runs past its message")
            if key >> 3 == field:
                yield at, at + length
            at += length
        else:
            raise ValueError(f"wire type {wire_type}")
    if at != end:
        raise ValueError("field runs past its message")


def proto_span_count(data: bytes, *, stop_after: int | None = None) -> int | None:
    """Spans in a protobuf ``ExportTraceServiceRequest``, read from the wire without parsing.

    Walks ``resource_spans`` (1) → ``scope_spans`` (2) → ``spans`` (2) by
    their length prefixes, so it holds no message in memory. Stops once the
    count passes ``stop_after`` (the count returned is then ``stop_after + 1``);
    ``None`` when the bytes are not well-formed protobuf.
    """
    count = 0
    try:
        for rs_start, rs_end in _length_delimited(data, 0, len(data), 1):
            for ss_start, ss_end in _length_delimited(data, rs_start, rs_end, 2):
                for _ in _length_delimited(data, ss_start, ss_end, 2):
                    count += 1
                    if stop_after is not None and count > stop_after:
                        return count
    except (IndexError, ValueError):
        return None
    return count


def _too_many_spans(
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


def _json_span_count(body: bytes) -> int | None:
    """Spans in an OTLP JSON request, or ``None`` when it does not parse (decoding says why)."""
    try:
        request = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    count = 0
    if not isinstance(request, dict):
        return None
    for resource in request.get("resourceSpans") or request.get("resource_spans") or ():
        if not isinstance(resource, dict):
            continue
        for scope in resource.get("scopeSpans") or resource.get("scope_spans") or ():
            if isinstance(scope, dict) and isinstance(scope.get("spans"), list):
                count += len(scope["spans"])
    return count


# --------------------------------------------------------------------------
# Request bodies (the OTLP/HTTP receiver).


@dataclass(frozen=True, slots=True)
class DecodedBody:
    """What one OTLP/HTTP request body held: good rows and quarantined records.

    ``records`` is ``len(rows) + len(rejections)``; the store reconciles it
    against what it accepts, drops as duplicate and quarantines.
    """

    rows: tuple[SpanRow, ...]
    rejections: tuple[Rejection, ...]

    @property
    def records(self) -> int:
        return len(self.rows) + len(self.rejections)


def gunzip_bounded(data: bytes, limits: DecodeLimits) -> bytes | Rejection:
    """Decompress a (possibly multi-member) gzip body within the decompression caps."""
    out = bytearray()
    remaining = data
    while remaining:
        decompressor = zlib.decompressobj(wbits=31)
        pending = remaining
        try:
            while not decompressor.eof:
                # Bounded steps: a bomb is stopped after at most 1 MiB past the cap.
                chunk = decompressor.decompress(pending, 1 << 20)
                pending = decompressor.unconsumed_tail
                out += chunk
                if _over_limit(len(out), len(data), limits):
                    return Rejection(
                        Reason.DECOMPRESSION_LIMIT,
                        _limit_detail(len(out), len(data), limits),
                        data[: limits.excerpt_bytes],
                        Position(byte_offset=0),
                    )
                if not chunk and not pending and not decompressor.eof:
                    return Rejection(
                        Reason.TRUNCATED_GZIP,
                        f"gzip data ends before its end-of-stream marker "
                        f"(after {len(out)} decompressed bytes)",
                        data[: limits.excerpt_bytes],
                        Position(byte_offset=len(out)),
                    )
        except zlib.error as error:
            return Rejection(
                Reason.CORRUPT_GZIP,
                f"gzip data is corrupt: {error}",
                data[: limits.excerpt_bytes],
                Position(byte_offset=len(out)),
            )
        remaining = decompressor.unused_data
        # Zero padding after the last member is allowed, as gzip(1) allows it.
        if remaining.count(0) == len(remaining):
            break
    return bytes(out)


def _over_limit(produced: int, consumed: int, limits: DecodeLimits) -> bool:
    if produced > limits.max_decompressed_bytes:
        return True
    return produced > limits.ratio_grace_bytes and produced > limits.max_compression_ratio * max(
        consumed, 1
    )


def _limit_detail(produced: int, consumed: int, limits: DecodeLimits) -> str:
    return (
        f"decompressed output passed {produced} bytes from {consumed} compressed "
        f"(caps: {limits.max_decompressed_bytes} bytes, ratio {limits.max_compression_ratio:g}); "
        "a gzip bomb or a huge file: raise --max-decompressed-bytes / --max-compression-ratio "
        "if it is genuine"
    )


def decode_request_body(
    body: bytes,
    *,
    content_type: str,
    content_encoding: str | None = None,
    limits: DecodeLimits = DEFAULT_LIMITS,
) -> DecodedBody:
    """Decode an OTLP/HTTP ``/v1/traces`` body (protobuf or JSON, optionally gzip).

    Malformed content comes back as rejections; only an unsupported
    ``Content-Type`` or ``Content-Encoding`` raises :class:`IngestError` (the
    receiver answers 415 to those).
    """
    encoding = (content_encoding or "identity").strip().lower()
    if encoding == "gzip":
        unpacked = gunzip_bounded(body, limits)
        if isinstance(unpacked, Rejection):
            return DecodedBody((), (unpacked,))
        body = unpacked
    elif encoding != "identity":
        raise IngestError(
            f"Content-Encoding {content_encoding!r} is not supported: send gzip or no encoding."
        )
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type in ("application/x-protobuf", "application/protobuf"):
        items = list(decode_proto_bytes(body, limits=limits))
    elif media_type == "application/json":
        cap = limits.max_request_spans
        # Every span has a spanId (links do too: an over-estimate), so this
        # cheap count clears almost every request without a second parse.
        if cap is not None and body.count(b'"spanId"') + body.count(b'"span_id"') > cap:
            count = _json_span_count(body)
            if count is not None and count > cap:
                return DecodedBody((), (_too_many_spans(count, limits, body),))
        items = list(decode_json_bytes(body, limits=limits))
    else:
        raise IngestError(
            f"Content-Type {content_type!r} is not supported: OTLP/HTTP uses "
            "application/x-protobuf or application/json."
        )
    rows = tuple(item for item in items if isinstance(item, SpanRow))
    rejections = tuple(item for item in items if isinstance(item, Rejection))
    return DecodedBody(rows, rejections)
