"""OTLP JSON requests to rows: the JSON read by hand, accepting what the Collector accepts."""

from __future__ import annotations

import base64
import binascii
import collections
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ...records import (
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
from .values import (
    SPAN_KIND_NAMES,
    STATUS_CODE_NAMES,
    BadValue,
    Item,
    ScopeInfo,
    composite_as_string,
    encode_basestring,
    excerpt_json,
    format_double,
    html_escape,
    row_has_lone_surrogate,
    too_large,
)

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


# What Go's strconv.ParseFloat accepts for a quoted double, minus hex floats.
_FLOAT_RE: Final = re.compile(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)",
    re.IGNORECASE,
)


_BASE64ISH_RE: Final = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")


_orjson_dumps: Final = orjson.dumps


def _get(obj: Mapping[str, Any], camel: str, snake: str) -> Any:
    value = obj.get(camel)
    if value is None and snake != camel:
        value = obj.get(snake)
    return value


def _expect_obj(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return EMPTY_ATTRIBUTES
    if not isinstance(value, dict):
        raise BadValue(Reason.WRONG_TYPE, f"{what} must be an object, got {_json_type(value)}")
    return value


def _expect_list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadValue(Reason.WRONG_TYPE, f"{what} must be an array, got {_json_type(value)}")
    return value


def _expect_str(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadValue(Reason.WRONG_TYPE, f"{what} must be a string, got {_json_type(value)}")
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
            raise BadValue(Reason.INVALID_VALUE, f"{what} {value[:40]!r} is not an integer")
        digits = value.lstrip("+-").lstrip("0")
        if len(digits) > _MAX_INT_DIGITS:
            raise BadValue(
                Reason.INVALID_VALUE,
                f"{what} {value[:24]!r}{'...' if len(value) > 24 else ''} is an integer of "
                f"{len(digits)} digits, out of range [{lo}, {hi}]",
            )
        number = -int(digits or "0") if value[0] == "-" else int(digits or "0")
    else:
        raise BadValue(Reason.WRONG_TYPE, f"{what} must be an integer, got {_json_type(value)}")
    if not lo <= number <= hi:
        raise BadValue(
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
            raise BadValue(Reason.INVALID_VALUE, f"{what} is out of range for a double") from None
    if isinstance(value, str):
        if not _FLOAT_RE.fullmatch(value):
            raise BadValue(Reason.INVALID_VALUE, f"{what} {value[:40]!r} is not a number")
        return float(value)
    raise BadValue(Reason.WRONG_TYPE, f"{what} must be a number, got {_json_type(value)}")


def _json_enum(value: Any, names: Mapping[str, int], what: str) -> int:
    if value is None:
        return 0
    if type(value) is int and _INT32_MIN <= value <= _INT32_MAX:
        return value
    if isinstance(value, str) and not _INT_RE.fullmatch(value):
        if value not in names:
            raise BadValue(Reason.INVALID_VALUE, f"{what} {value[:40]!r} is not a known name")
        return names[value]
    return _json_int(value, what, _INT32_MIN, _INT32_MAX)


def _json_id(value: Any, size: int, what: str, *, required: bool) -> str:
    """Hex id -> lower-case hex, validated; '' for an absent optional (or all-zero) id."""
    text = _expect_str(value, what)
    if not text:
        if required:
            raise BadValue(Reason.INVALID_ID, f"{what} is missing")
        return ""
    if len(text) != 2 * size or not _HEX_RE.fullmatch(text):
        hint = ""
        if len(text) == 4 * ((size + 2) // 3) and _BASE64ISH_RE.fullmatch(text):
            hint = (
                " (it looks like base64: the producer wrote proto3 canonical JSON, "
                "but OTLP JSON ids are hex)"
            )
        raise BadValue(
            Reason.INVALID_ID, f"{what} {text[:64]!r} is not {2 * size} hex digits{hint}"
        )
    lowered = text.lower()
    if lowered.count("0") == len(lowered):
        if required:
            raise BadValue(Reason.INVALID_ID, f"{what} is all zero (an invalid id)")
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
            return html_escape(_orjson_dumps(parts).decode())
        except TypeError:  # a lone surrogate: orjson refuses, json passes it through
            return html_escape("[" + ",".join(map(encode_basestring, parts)) + "]")
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
        raise BadValue(Reason.WRONG_TYPE, f"attribute {key!r} value must be an object")
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
                    bad = too_large(payload, self.limits, key)
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
                        bad = too_large(text, self.limits, key)
                        if bad is not None:
                            raise bad
                    return text, False
        member, payload = _one_of(value, key)
        is_str = False
        if member == _STRING:
            if type(payload) is not str:
                raise BadValue(Reason.WRONG_TYPE, f"attribute {key!r} stringValue must be a string")
            text, is_str = payload, True
        elif member == _INT:
            text = str(_json_int(payload, f"attribute {key!r}", _INT64_MIN, _INT64_MAX))
        elif member == _BOOL:
            if type(payload) is not bool:
                raise BadValue(Reason.WRONG_TYPE, f"attribute {key!r} boolValue must be a boolean")
            text = "true" if payload else "false"
        elif member == _DOUBLE:
            text = format_double(_json_double(payload, f"attribute {key!r}"))
        elif member == _BYTES:
            text = self._base64(payload, key)
        elif member in (_ARRAY, _KVLIST):
            self.has_double = False
            raw = self._raw(member, payload, key, 1)
            text = composite_as_string(raw, self.has_double)
        else:
            return "", False
        # Most values are short: only measure UTF-8 length when the character
        # count says the value could be over the cap.
        if len(text) * 4 > self.cap:
            bad = too_large(text, self.limits, key)
            if bad is not None:
                raise bad
        return text, is_str

    def _base64(self, value: Any, key: str) -> str:
        """Validated base64 of a ``bytesValue``, re-encoded canonically (as Go writes it)."""
        if type(value) is not str:
            raise BadValue(Reason.WRONG_TYPE, f"attribute {key!r} bytesValue must be a string")
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise BadValue(
                Reason.INVALID_VALUE, f"attribute {key!r} bytesValue is not standard base64"
            ) from None
        return base64.b64encode(raw).decode("ascii")

    def _raw(self, member: int, payload: Any, key: str, depth: int) -> object:
        """One ``AnyValue`` member -> the Go ``AsRaw()`` equivalent (bytes as base64 text)."""
        if member == _STRING:
            if type(payload) is not str:
                raise BadValue(Reason.WRONG_TYPE, f"attribute {key!r} stringValue must be a string")
            return payload
        if member == _INT:
            return _json_int(payload, f"attribute {key!r}", _INT64_MIN, _INT64_MAX)
        if member == _BOOL:
            if type(payload) is not bool:
                raise BadValue(Reason.WRONG_TYPE, f"attribute {key!r} boolValue must be a boolean")
            return payload
        if member == _DOUBLE:
            self.has_double = True
            return _json_double(payload, f"attribute {key!r}")
        if member == _BYTES:
            return self._base64(payload, key)
        if member == -1:
            return None
        if depth > self.depth:
            raise BadValue(
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
                raise BadValue(
                    Reason.WRONG_TYPE, f"attribute {key!r} kvlist entries must be objects"
                )
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
            raise BadValue(Reason.WRONG_TYPE, f"{what} must be an array, got {_json_type(value)}")
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
                raise BadValue(Reason.WRONG_TYPE, f"{what} entries must be objects")
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

    def reject_unit(bad: BadValue) -> Rejection:
        return Rejection(
            bad.reason,
            bad.detail,
            excerpt_json(request, limits.excerpt_bytes),
            Position(line=line, byte_offset=byte_offset),
        )

    if not isinstance(request, dict):
        yield reject_unit(
            BadValue(
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
    except BadValue as bad:
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
        except BadValue as bad:
            yield Rejection(
                bad.reason,
                bad.detail,
                excerpt_json(rs, limits.excerpt_bytes),
                Position(line=line, byte_offset=byte_offset, span_index=span_index),
            )
            span_index += 1
            continue
        resource_error: BadValue | None = None
        resource_attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
        service_name = ""
        try:
            resource = _expect_obj(rs_obj.get("resource"), "resource")
            if repeated:
                _check_keys(resource, repeated, "resource")
            resource_attributes, service_name = values.attributes(
                resource.get("attributes"), "resource attributes"
            )
        except BadValue as bad:
            resource_error = BadValue(bad.reason, "resource: " + bad.detail)
        except RecursionError:
            resource_error = BadValue(
                Reason.TOO_DEEPLY_NESTED, "resource attributes nest too deeply"
            )

        for ss in scope_groups:
            try:
                ss_obj = _expect_obj(ss, "scopeSpans entry")
                if repeated:
                    _check_keys(ss_obj, repeated, "scopeSpans entry", _SCOPE_SPANS_PARTS)
                spans = _expect_list(ss_obj.get("spans"), "spans")
            except BadValue as bad:
                yield Rejection(
                    bad.reason,
                    bad.detail,
                    excerpt_json(ss, limits.excerpt_bytes),
                    Position(line=line, byte_offset=byte_offset, span_index=span_index),
                )
                span_index += 1
                continue
            scope_error = resource_error
            scope: ScopeInfo | None = None
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
                    scope = ScopeInfo(
                        resource_attributes,
                        service_name,
                        _expect_str(scope_obj.get("name"), "scope name"),
                        _expect_str(scope_obj.get("version"), "scope version"),
                        scope_attributes,
                    )
                except BadValue as bad:
                    scope_error = BadValue(bad.reason, "scope: " + bad.detail)
                except RecursionError:
                    scope_error = BadValue(
                        Reason.TOO_DEEPLY_NESTED, "scope attributes nest too deeply"
                    )
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
                    if check_surrogates and row_has_lone_surrogate(row):
                        raise BadValue(
                            Reason.INVALID_UTF8,
                            "a string holds a lone UTF-16 surrogate escape (e.g. \\ud800), "
                            "which is not valid Unicode text",
                        )
                except BadValue as bad:
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
                raise BadValue(
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
        excerpt_json(span, limits.excerpt_bytes),
        position,
        trace_id=trace_id,
        span_id=span_id,
    )


def _json_span(span: Any, scope: ScopeInfo, values: _JsonValues, position: Position) -> SpanRow:
    if type(span) is not dict:
        raise BadValue(Reason.WRONG_TYPE, f"a span must be an object, got {_json_type(span)}")
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
            raise BadValue(Reason.WRONG_TYPE, f"status must be an object, got {_json_type(status)}")
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
        raise BadValue(Reason.WRONG_TYPE, f"events must be an array, got {_json_type(raw_events)}")
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
        raise BadValue(Reason.WRONG_TYPE, f"links must be an array, got {_json_type(raw_links)}")
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
