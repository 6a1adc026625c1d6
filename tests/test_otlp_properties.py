"""Any JSON value in any field of an OTLP JSON request: the decoders never raise, and count.

The tester's crash (a 5,000-digit decimal string in ``startTimeUnixNano``)
was one value in one field; these properties put *any* JSON value (huge
digit strings and numbers, floats, NaN-ish strings, booleans, null, nested
arrays and objects, very long strings, lone surrogate escapes) into *every*
field of a resource, scope, span, event, link, status and attribute value,
and decode the request the way ``recurscope ingest`` does (the OTLP JSON
format's decoder) and the way ``recurscope serve`` does
(:func:`decode_request_body`); ``recurscope validate`` reads it too.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any, Final

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recurscope.pipeline import Reason, Rejection, SpanRow
from recurscope.pipeline.decode.formats.otlp_json import decode_otlp_json_lines
from recurscope.pipeline.decode.otlp import decode_request_body
from recurscope.pipeline.decode.validate import validate_bytes
from recurscope.pipeline.records import DEFAULT_LIMITS, PendingRecord
from recurscope.pipeline.store.rows import prepare_rows

TRACE: Final = "5b8efff798038103d269b633813fc60c"
HOLE: Final = "@@hole-{}@@"

Path = tuple[str | int, ...]


def _attributes(snake: bool) -> list[dict[str, Any]]:
    """One attribute of every ``AnyValue`` kind, in camelCase or snake_case member names."""

    def member(name: str) -> str:
        return re.sub(r"[A-Z]", lambda m: "_" + m.group().lower(), name) if snake else name

    def value(name: str, payload: Any) -> dict[str, Any]:
        return {member(name): payload}

    return [
        {"key": "s", "value": value("stringValue", "text")},
        {"key": "b", "value": value("boolValue", True)},
        {"key": "i", "value": value("intValue", "5")},
        {"key": "n", "value": value("intValue", -7)},
        {"key": "d", "value": value("doubleValue", 1.5)},
        {"key": "y", "value": value("bytesValue", "AAE=")},
        {
            "key": "as",
            "value": value(
                "arrayValue", {"values": [value("stringValue", "p"), value("stringValue", "q")]}
            ),
        },
        {
            "key": "ai",
            "value": value(
                "arrayValue", {"values": [value("intValue", "1"), value("intValue", 2)]}
            ),
        },
        {
            "key": "am",
            "value": value(
                "arrayValue",
                {
                    "values": [
                        value("doubleValue", "NaN"),
                        value("bytesValue", "AQ=="),
                        value("kvlistValue", {"values": [{"key": "k", "value": {}}]}),
                    ]
                },
            ),
        },
        {
            "key": "kv",
            "value": value(
                "kvlistValue",
                {"values": [{"key": "x", "value": value("boolValue", False)}]},
            ),
        },
        {"key": "e", "value": {}},
    ]


def _span(span_id: str, *, snake: bool = False) -> dict[str, Any]:
    """A span with every field set, keyed in camelCase (or snake_case)."""

    def k(camel: str) -> str:
        return re.sub(r"[A-Z]", lambda m: "_" + m.group().lower(), camel) if snake else camel

    return {
        k("traceId"): TRACE,
        k("spanId"): span_id,
        k("parentSpanId"): "eee19b7ec3c1b173",
        k("traceState"): "k=v",
        "name": "call",
        "kind": "SPAN_KIND_CLIENT" if snake else 2,
        k("startTimeUnixNano"): "1700000000000000000",
        k("endTimeUnixNano"): 1700000000000001000,
        "flags": 257,
        "attributes": _attributes(snake),
        k("droppedAttributesCount"): 0,
        "events": [
            {
                k("timeUnixNano"): "1700000000000000500",
                "name": "event",
                "attributes": _attributes(snake),
                k("droppedAttributesCount"): 0,
            }
        ],
        k("droppedEventsCount"): 0,
        "links": [
            {
                k("traceId"): TRACE,
                k("spanId"): "eee19b7ec3c1b172",
                k("traceState"): "a=b",
                "attributes": _attributes(snake),
                k("droppedAttributesCount"): 0,
                "flags": 1,
            }
        ],
        k("droppedLinksCount"): 0,
        "status": {"code": "STATUS_CODE_ERROR" if snake else 2, "message": "failed"},
    }


def _sentinel(span_id: str) -> dict[str, Any]:
    """A resource with one plain span that no substitution touches."""
    return {
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "other"}}]},
        "scopeSpans": [
            {
                "spans": [
                    {
                        "traceId": TRACE,
                        "spanId": span_id,
                        "name": "neighbour",
                        "startTimeUnixNano": "1700000000000000000",
                        "endTimeUnixNano": "1700000000000000100",
                    }
                ]
            }
        ],
    }


TEMPLATE: Final = {
    "resourceSpans": [
        _sentinel("00000000000000b1"),
        {
            "resource": {
                "attributes": [
                    {"key": "service.name", "value": {"stringValue": "svc"}},
                    *_attributes(False),
                ],
                "droppedAttributesCount": 0,
            },
            "schemaUrl": "https://opentelemetry.io/schemas/1.24.0",
            "scopeSpans": [
                {
                    "scope": {
                        "name": "lib",
                        "version": "1.0",
                        "attributes": _attributes(True),
                        "droppedAttributesCount": 0,
                    },
                    "schemaUrl": "https://opentelemetry.io/schemas/1.24.0",
                    "spans": [_span("00000000000000a1"), _span("00000000000000a2", snake=True)],
                }
            ],
        },
        _sentinel("00000000000000b2"),
    ]
}
SPANS: Final = 4


def _positions(value: Any, path: Path) -> Iterator[Path]:
    """``path`` and the path of every value below it."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _positions(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _positions(child, (*path, index))


_MIDDLE: Final[Path] = ("resourceSpans", 1)
_SCOPE_SPANS: Final[Path] = (*_MIDDLE, "scopeSpans", 0)
POSITIONS: Final = sorted(
    {
        *_positions(TEMPLATE["resourceSpans"][1]["resource"], (*_MIDDLE, "resource")),
        *_positions(
            TEMPLATE["resourceSpans"][1]["scopeSpans"][0]["scope"], (*_SCOPE_SPANS, "scope")
        ),
        *(
            position
            for index, span in enumerate(TEMPLATE["resourceSpans"][1]["scopeSpans"][0]["spans"])
            for position in _positions(span, (*_SCOPE_SPANS, "spans", index))
        ),
    },
    key=repr,
)
"""Every field of the resource, the scope and the two spans (events, links, status and
attribute values included), and each of those objects as a whole."""


def _set(doc: Any, path: Path, value: Any) -> None:
    for step in path[:-1]:
        doc = doc[step]
    doc[path[-1]] = value


# -- JSON values, as JSON text --------------------------------------------------------

_DIGITS: Final = "1234567890" * 500
_SPECIAL_STRINGS: Final = [
    _DIGITS,
    "-" + _DIGITS,
    "+" + _DIGITS,
    "0" * 5000 + "1",
    "0" * 5000,
    _DIGITS[:4301],
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775809",
    "2147483648",
    "-0",
    "+5",
    " 5",
    "5 ",
    "0x10",
    "1e3",
    "1.5",
    "NaN",
    "nan",
    "-Infinity",
    "inf",
    "1e400",
    "-1e-400",
    "",
    "SPAN_KIND_SERVER",
    "STATUS_CODE_ERROR",
    TRACE,
    TRACE.upper(),
    "0" * 32,
    "W47/95gDgQPSabYzgT/GDA==",
    "eee19b7ec3c1b174",
    "AAE=",
    "***",
    "\ud800",
    "a\udc00b",
    "é\u2028<&>",
    "\x00",
    "x" * 100_000,
    "é" * 300_000,
]
# JSON texts json.dumps does not write: huge number literals, deep nesting,
# objects that repeat a key.
_RAW_TEXTS: Final = [
    _DIGITS,  # over Python's 4,300-digit limit as a number: the whole line is refused
    "-" + _DIGITS[:4400],
    _DIGITS[:400],
    "1" + "0" * 20,
    "-1" + "0" * 19,
    "1e99999",
    "-1e-99999",
    "123.456e789",
    "-0",
    "0.0",
    "1E2",
    "4.9e-324",
    "[" * 300 + "]" * 300,
    '{"a": 1, "a": 2}',
    '{"stringValue": "x", "stringValue": "y"}',
    '[{"key": "k", "key": "j", "value": {}}]',
    '{"values": [{"intValue": "1", "intValue": "2"}]}',
]
_keys = st.one_of(
    st.sampled_from(
        [
            "traceId",
            "spanId",
            "name",
            "key",
            "value",
            "values",
            "stringValue",
            "intValue",
            "doubleValue",
            "boolValue",
            "bytesValue",
            "arrayValue",
            "kvlistValue",
            "attributes",
            "code",
            "timeUnixNano",
        ]
    ),
    st.text(max_size=8),
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(_SPECIAL_STRINGS),
)
_values = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(_keys, children, max_size=4),
    ),
    max_leaves=12,
)
_REPEATS: Final = frozenset(text for text in _RAW_TEXTS if text.startswith(("{", "[{")))
_HUGE_DIGIT_STRINGS: Final = [
    text for text in _SPECIAL_STRINGS if len(text) > 4300 and text.lstrip("+-").isdigit()
]
# Each kind gets its own share, so the rare values that broke the decoders
# (digit strings past Python's 4,300-digit limit) come up in every run.
# json.dumps escapes lone surrogates as \ud800, as a hostile or broken sender would.
_fragments = st.one_of(
    _values.map(json.dumps),
    st.sampled_from(_SPECIAL_STRINGS).map(json.dumps),
    st.sampled_from(_HUGE_DIGIT_STRINGS).map(json.dumps),
    st.sampled_from(_RAW_TEXTS),
)


def _request(substitutions: list[tuple[Path, str]]) -> bytes:
    """The template as JSON text with each substitution's JSON text at its position.

    Deepest first, so a substitution inside an object another one replaces
    still finds its place.
    """
    doc = copy.deepcopy(TEMPLATE)
    texts: dict[str, str] = {}
    for index, (path, text) in enumerate(
        sorted(substitutions, key=lambda pair: len(pair[0]), reverse=True)
    ):
        _set(doc, path, HOLE.format(index))
        texts[json.dumps(HOLE.format(index))] = text
    data = json.dumps(doc)
    for hole, text in texts.items():
        data = data.replace(hole, text)
    return data.encode()


def _baseline() -> list[SpanRow | Rejection]:
    rows, rejections = decode_otlp_json_lines(
        [PendingRecord(json.dumps(TEMPLATE).encode(), 1, 0)], DEFAULT_LIMITS
    )
    assert not rejections and len(rows) == SPANS
    return list(rows)


BASELINE: Final = _baseline()


def _parses_whole(data: bytes) -> bool:
    """Whether Python's json reads the text at all (not: a number of more than 4,300 digits)."""
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def _assert_well_formed(items: list[SpanRow | Rejection]) -> None:
    """Rows keep SpanRow's invariants and the store can take them; rejections say why."""
    for item in items:
        if isinstance(item, Rejection):
            assert isinstance(item.reason, Reason) and item.detail, item
            continue
        assert isinstance(item, SpanRow)
        assert re.fullmatch("[0-9a-f]{32}", item.trace_id) and item.trace_id != "0" * 32
        assert re.fullmatch("[0-9a-f]{16}", item.span_id) and item.span_id != "0" * 16
        for mapping in (item.resource_attributes, item.scope_attributes, item.attributes):
            assert all(type(k) is str and type(v) is str for k, v in mapping.items())
    # The store's own preparation (its checks, the Arrow columns) raises nothing.
    prepare_rows([item for item in items if isinstance(item, SpanRow)])


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@example(substitutions=[((*_SCOPE_SPANS, "spans", 0, "startTimeUnixNano"), f'"{_DIGITS}"')])
@example(substitutions=[((*_SCOPE_SPANS, "spans", 1, "kind"), f'"-{_DIGITS}"')])
@given(
    substitutions=st.lists(
        st.tuples(st.sampled_from(POSITIONS), _fragments),
        min_size=1,
        max_size=3,
        unique_by=lambda pair: pair[0],
    )
)
def test_any_json_value_in_any_field_is_a_row_or_a_rejection_never_an_exception(
    substitutions: list[tuple[Path, str]],
) -> None:
    """Ingest and serve decode any value anywhere into one row or rejection per span.

    Each span under the touched resource is a row or a rejection (a bad
    resource or scope quarantines each of its spans); the resources before
    and after it land untouched. A text Python's json cannot read at all (a
    number of more than 4,300 digits) is one rejection for the whole line.
    An object that repeats a key is never stored as if it did not.
    """
    data = _request(substitutions)

    # recurscope ingest: the OTLP JSON format's decoder (what its workers run).
    rows, rejections = decode_otlp_json_lines([PendingRecord(data, 1, 0)], DEFAULT_LIMITS)
    ingested: list[SpanRow | Rejection] = sorted(
        [*rows, *rejections], key=lambda item: item.position.span_index or 0
    )
    # recurscope serve: the receiver's body decoder.
    body = decode_request_body(data, content_type="application/json")

    for items in (ingested, [*body.rows, *body.rejections]):
        _assert_well_formed(items)
    assert body.rows == tuple(rows)
    assert [r.reason for r in body.rejections] == [r.reason for r in rejections]
    assert body.records == len(rows) + len(rejections)
    # recurscope validate reads the same requests for another purpose.
    validate_bytes(data, format="otlp-json")

    if not _parses_whole(data):
        assert not rows and [r.position.span_index for r in rejections] == [None]
        assert rejections[0].reason == Reason.INVALID_VALUE
        return
    assert len(ingested) == body.records == SPANS
    assert [item.position.span_index for item in ingested] == list(range(SPANS))
    assert ingested[0] == BASELINE[0] and ingested[-1] == BASELINE[-1]
    if any(text.encode() in data for text in _REPEATS):
        # Never stored as if the key were there once (duplicate_key, or an
        # error found first, such as an array where the resource belongs).
        assert rejections


# --- the wire-level span count agrees with the parser -------------------------

_scope_sizes = st.lists(st.lists(st.integers(0, 5), max_size=3), max_size=3)


@given(
    layout=_scope_sizes,
    names=st.text(max_size=20),
    cut=st.one_of(st.none(), st.integers(0, 400)),
    stop_after=st.one_of(st.none(), st.integers(0, 20)),
)
@settings(max_examples=150, deadline=None)
def test_the_wire_span_count_is_the_parsed_count(
    layout: list[list[int]], names: str, cut: int | None, stop_after: int | None
) -> None:
    """``proto_span_count`` (no parse, for --max-request-spans) never disagrees with the parser.

    On a well-formed request it is the parsed count (or ``stop_after + 1`` once
    past it); on bytes the parser refuses it is ``None`` (or past the cap).
    """
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    from recurscope.pipeline.decode.otlp import proto_span_count

    request = ExportTraceServiceRequest()
    for scopes in layout:
        resource_spans = request.resource_spans.add()
        resource_spans.resource.attributes.add(key="service.name").value.string_value = names
        resource_spans.schema_url = names
        for size in scopes:
            scope_spans = resource_spans.scope_spans.add()
            scope_spans.scope.name = names
            for index in range(size):
                span = scope_spans.spans.add(name=names, start_time_unix_nano=index + 1)
                span.events.add(name=names, time_unix_nano=2**63)
                span.links.add(span_id=b"\x01" * 8)
    data = request.SerializeToString()
    if cut is not None:
        data = data[:cut]
    parsed = ExportTraceServiceRequest()
    try:
        parsed.ParseFromString(data)
    except DecodeError:
        # Malformed: no count, unless the cap was passed before the damage
        # (refused as too large instead of as invalid — refused either way).
        counted = proto_span_count(data, stop_after=stop_after)
        assert counted is None or (stop_after is not None and counted == stop_after + 1)
        return
    truth = sum(len(ss.spans) for rs in parsed.resource_spans for ss in rs.scope_spans)
    counted = proto_span_count(data, stop_after=stop_after)
    if stop_after is not None and truth > stop_after:
        assert counted == stop_after + 1
    else:
        assert counted == truth
