"""The fast OTLP JSON paths give exactly what the general ones give.

Ingest parses with orjson and encodes the common attribute shapes inline
(``_JsonValues.encode``), builds dictionary-encoded map columns for shared
resource/scope maps, and refuses a document too large to parse whole with a
command that splits it. These tests hold each shortcut to an independent
oracle: the protobuf decoder, the ``json`` module, the Decimal-based double
formatter, or stored rows.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue, KeyValueList
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

from recurscope.pipeline import Reason, Rejection, SpanRow, Store, ingest
from recurscope.pipeline.decode.otlp import (
    ParsedJson,
    decode_json_bytes,
    format_double,
    iter_json_request,
    iter_proto_request,
    parse_json,
    parse_json_text,
)
from recurscope.pipeline.decode.otlp.json_request import _may_repeat_keys
from recurscope.pipeline.decode.otlp.values import _format_double_exact
from recurscope.pipeline.records import DEFAULT_LIMITS, DecodeLimits, Position
from recurscope.pipeline.testing import otlp_json_from_proto, sdk_request, synthetic_lines

TRACE = "5b8efff798038103d269b633813fc60c"
SPAN = "eee19b7ec3c1b174"


def one_span_request(attributes: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    span: dict[str, Any] = {
        "traceId": TRACE,
        "spanId": SPAN,
        "name": "s",
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000000000001000",
        "attributes": attributes,
    }
    span.update(fields)
    return {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}


def decoded(data: bytes) -> list[SpanRow | Rejection]:
    """Through the fast path: orjson, inline attribute encoding."""
    return list(decode_json_bytes(data))


def decoded_exactly(data: bytes) -> list[SpanRow | Rejection]:
    """Through the ``json`` module, as ingest parsed before orjson."""
    parsed = parse_json_text(data, Position(), DEFAULT_LIMITS)
    if isinstance(parsed, Rejection):
        return [parsed]
    return list(iter_json_request(parsed[0], check_surrogates=parsed[1]))


# -- values: the protobuf decoder is the oracle ---------------------------------------

_texts = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"]) | st.sampled_from('<>&\u2028\u2029"\\\n'),
    max_size=12,
)
_int64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_scalars = st.one_of(
    _texts.map(lambda s: AnyValue(string_value=s)),
    _int64.map(lambda i: AnyValue(int_value=i)),
    st.booleans().map(lambda b: AnyValue(bool_value=b)),
    st.floats().map(lambda f: AnyValue(double_value=f)),
    st.binary(max_size=6).map(lambda b: AnyValue(bytes_value=b)),
    st.just(AnyValue()),
)


def _arrays(children: st.SearchStrategy[AnyValue]) -> st.SearchStrategy[AnyValue]:
    return st.one_of(
        # Homogeneous string and int arrays take the fast path; the rest the general one.
        st.lists(_texts, max_size=4).map(
            lambda xs: AnyValue(
                array_value=ArrayValue(values=[AnyValue(string_value=x) for x in xs])
            )
        ),
        st.lists(_int64, max_size=4).map(
            lambda xs: AnyValue(array_value=ArrayValue(values=[AnyValue(int_value=x) for x in xs]))
        ),
        st.lists(children, max_size=3).map(lambda xs: AnyValue(array_value=ArrayValue(values=xs))),
        st.lists(st.tuples(_texts, children), max_size=3).map(
            lambda kvs: AnyValue(
                kvlist_value=KeyValueList(values=[KeyValue(key=k, value=v) for k, v in kvs])
            )
        ),
    )


_values = st.recursive(_scalars, _arrays, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(attributes=st.lists(st.tuples(_texts, _values), max_size=8), resource=_values)
def test_json_values_encode_like_the_protobuf_decoder(
    attributes: list[tuple[str, AnyValue]], resource: AnyValue
) -> None:
    """Any AnyValue tree, sent as OTLP JSON, is stored exactly as when sent as protobuf."""
    message = ExportTraceServiceRequest(
        resource_spans=[
            ResourceSpans(
                resource=Resource(
                    attributes=[
                        KeyValue(key="service.name", value=resource),
                        KeyValue(key="host", value=AnyValue(string_value="h")),
                    ]
                ),
                scope_spans=[
                    ScopeSpans(
                        spans=[
                            Span(
                                trace_id=bytes.fromhex(TRACE),
                                span_id=bytes.fromhex(SPAN),
                                start_time_unix_nano=10,
                                end_time_unix_nano=20,
                                attributes=[KeyValue(key=k, value=v) for k, v in attributes],
                                events=[
                                    Span.Event(
                                        time_unix_nano=15,
                                        name="e",
                                        attributes=[
                                            KeyValue(key=k, value=v) for k, v in attributes
                                        ],
                                    )
                                ],
                            )
                        ]
                    )
                ],
            )
        ]
    )
    from_proto = list(iter_proto_request(message))
    data = json.dumps(otlp_json_from_proto(message)).encode()
    assert decoded(data) == from_proto
    assert decoded_exactly(data) == from_proto


@settings(max_examples=2000, deadline=None)
@given(value=st.floats())
def test_double_fast_path_matches_the_exact_formatter(value: float) -> None:
    """repr's plain notation, minus a trailing '.0', is Go's ES6 text wherever repr uses it."""
    assert format_double(value) == _format_double_exact(value)


@pytest.mark.parametrize(
    "value",
    [0.0, -0.0, 1e-4, 9.999e-5, 1e15, 1e16, 9999999999999998.0, 0.1 + 0.2, -1.5, math.pi],
)
def test_double_fast_path_edges(value: float) -> None:
    assert format_double(value) == _format_double_exact(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"intValue": "007"}, "7"),
        ({"intValue": "-0"}, "0"),
        ({"intValue": "+5"}, "5"),
        ({"intValue": "0"}, "0"),
        ({"intValue": "123456789012345678"}, "123456789012345678"),
        ({"intValue": "1234567890123456789"}, "1234567890123456789"),
        ({"intValue": -12}, "-12"),
        ({"stringValue": "a", "intValue": "3"}, "3"),
        ({"intValue": "3", "stringValue": "a"}, "a"),
        ({"stringValue": None}, ""),
        ({"boolValue": True, "unknown": 1}, "true"),
        ({"doubleValue": 2}, "2"),
        ({"doubleValue": 1e-7}, "1e-7"),
        ({"arrayValue": {"values": []}}, "[]"),
        ({"arrayValue": {"values": [{"intValue": "007"}, {"intValue": "-3"}]}}, "[7,-3]"),
        ({"arrayValue": {"values": [{"stringValue": "a"}, {"intValue": "1"}]}}, '["a",1]'),
        ({"arrayValue": {"values": [{"stringValue": "<\u2028>"}]}}, '["\\u003c\\u2028\\u003e"]'),
        ({"arrayValue": {"values": [{"stringValue": "\x01\x7f"}]}}, '["\\u0001\x7f"]'),
    ],
)
def test_odd_but_valid_json_values(value: dict[str, Any], expected: str) -> None:
    """Shapes only JSON senders produce keep their general-path encoding."""
    (row,) = decoded(json.dumps(one_span_request([{"key": "k", "value": value}])).encode())
    assert isinstance(row, SpanRow) and row.attributes == {"k": expected}


def test_entries_without_key_or_value_and_repeated_keys() -> None:
    attributes: list[Any] = [
        {"value": {"stringValue": "no key"}},
        {"key": "v"},
        {"key": "v2", "value": None},
        {"key": "r", "value": {"stringValue": "1"}},
        {"key": "r", "value": {"intValue": "2"}},
    ]
    (row,) = decoded(json.dumps(one_span_request(attributes)).encode())
    assert isinstance(row, SpanRow)
    assert row.attributes == {"": "no key", "v": "", "v2": "", "r": "2"}


def test_attribute_cap_still_applies_on_the_fast_path() -> None:
    data = json.dumps(one_span_request([{"key": "k", "value": {"stringValue": "x" * 40}}]))
    limits = DecodeLimits(max_attribute_bytes=16)
    (item,) = decode_json_bytes(data.encode(), limits=limits)
    assert isinstance(item, Rejection) and item.reason == Reason.ATTRIBUTE_TOO_LARGE
    array = {"arrayValue": {"values": [{"stringValue": "abcdef"}] * 3}}
    (item,) = decode_json_bytes(
        json.dumps(one_span_request([{"key": "k", "value": array}])).encode(), limits=limits
    )
    assert isinstance(item, Rejection) and item.reason == Reason.ATTRIBUTE_TOO_LARGE


# -- parsing: orjson against the json module --------------------------------------------

_numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=0, max_value=2**64 + 10).map(str),
    st.sampled_from(["1e3", "NaN", "-5", "x", "", "18446744073709551616"]),
)
_maybe_bad_span = st.fixed_dictionaries(
    {
        "traceId": st.sampled_from([TRACE, TRACE.upper(), "xyz", "", "0" * 32]),
        "spanId": st.sampled_from([SPAN, "0" * 16, "abc"]),
        "startTimeUnixNano": _numbers,
        "endTimeUnixNano": _numbers,
        "kind": st.one_of(st.integers(min_value=-3, max_value=2**40), st.just("SPAN_KIND_SERVER")),
        "attributes": st.lists(
            st.fixed_dictionaries(
                {
                    "key": st.sampled_from(["a", "b", "service.name"]),
                    "value": st.one_of(
                        st.dictionaries(
                            st.sampled_from(
                                ["stringValue", "intValue", "doubleValue", "boolValue"]
                            ),
                            st.one_of(_numbers, st.booleans(), st.text(max_size=3)),
                            max_size=2,
                        ),
                    ),
                }
            ),
            max_size=4,
        ),
    }
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spans=st.lists(_maybe_bad_span, min_size=1, max_size=4))
def test_orjson_parsing_gives_what_json_gives_good_or_bad(spans: list[dict[str, Any]]) -> None:
    """Rows, rejections, reasons, details, excerpts and positions match the json module's.

    orjson reads integers beyond 64 bits as floats; the fast path re-parses a
    unit with json at its first rejection, so even then nothing differs.
    """
    data = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).encode()
    fast, exact = decoded(data), decoded_exactly(data)
    assert fast == exact
    assert [item.position for item in fast] == [item.position for item in exact]


def test_integers_beyond_64_bits_keep_their_reason() -> None:
    """A time written as a JSON number above uint64 is out of range, not a float."""
    data = json.dumps(one_span_request([], startTimeUnixNano=2**64)).encode()
    (item,) = decoded(data)
    assert isinstance(item, Rejection) and item.reason == Reason.INVALID_VALUE


def test_a_double_with_hundreds_of_digits_is_quarantined_not_a_crash() -> None:
    data = json.dumps(one_span_request([{"key": "d", "value": {"doubleValue": 10**400}}]))
    (item,) = decoded(data.encode())
    assert isinstance(item, Rejection) and item.reason == Reason.INVALID_VALUE


# -- repeated keys: a json object hook is the oracle ------------------------------------

# A JSON tree whose objects are lists of (key, value) pairs, so keys can repeat.
_Node = Any
_key_texts = st.sampled_from(["a", "b", "name", "k:v", 'q"', "\\", "é"])
_leaf_texts = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"]) | st.sampled_from(':"\\\n'), max_size=8
)
_trees: st.SearchStrategy[_Node] = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), _leaf_texts),
    lambda children: st.one_of(
        st.lists(children, max_size=3).map(lambda items: ("array", items)),
        st.lists(st.tuples(_key_texts, children), max_size=4).map(lambda kvs: ("object", kvs)),
    ),
    max_leaves=10,
).map(lambda node: ("object", [("root", node)]))


def _written(node: _Node, ascii_only: bool, escape_colons: bool, space: str) -> str:
    """``node`` as JSON text in one of the styles senders use."""
    if isinstance(node, tuple):
        kind, payload = node
        if kind == "array":
            items = (_written(item, ascii_only, escape_colons, space) for item in payload)
            return "[" + ",".join(f"{space}{item}" for item in items) + "]"
        members = (
            f"{space}{_written(key, ascii_only, escape_colons, space)}{space}:{space}"
            f"{_written(value, ascii_only, escape_colons, space)}"
            for key, value in payload
        )
        return "{" + ",".join(members) + space + "}"
    text = json.dumps(node, ensure_ascii=ascii_only)
    if escape_colons and isinstance(node, str):
        text = text.replace(":", "\\u003a")  # a ':' in a JSON string is always a literal
    return text


def _repeats(node: _Node) -> bool:
    if not isinstance(node, tuple):
        return False
    kind, payload = node
    if kind == "array":
        return any(_repeats(item) for item in payload)
    keys = [key for key, _ in payload]
    return len(set(keys)) < len(keys) or any(_repeats(value) for _, value in payload)


@settings(max_examples=1000, deadline=None)
@given(
    tree=_trees,
    ascii_only=st.booleans(),
    escape_colons=st.booleans(),
    space=st.sampled_from(["", " ", "\n  ", "\t"]),
)
def test_the_repeated_key_screen_misses_no_repeat(
    tree: _Node, ascii_only: bool, escape_colons: bool, space: str
) -> None:
    """Whatever the escaping and spacing, a text that repeats a key is sent to the exact parse.

    And one that does not is not (so orjson's reading is kept), unless it holds
    an escaped backslash before ``u003``, which the screen counts as a colon.
    """
    data = _written(tree, ascii_only, escape_colons, space).encode()
    value = orjson.loads(data)
    screened = _may_repeat_keys(data, value)
    if _repeats(tree):
        assert screened
    elif b"\\\\u003" not in data:
        assert not screened
    assert not _may_repeat_keys(orjson.dumps(value) + b"\n", value)


@pytest.mark.parametrize("style", ["compact", "spaced", "escaped colons", "surrogate"])
def test_a_repeated_key_is_found_whichever_parser_reads_the_line(style: str) -> None:
    """orjson's text, any other text, and text only json reads: the span is duplicate_key."""
    good = one_span_request([{"key": "url", "value": {"stringValue": "http://x:80"}}])
    text = orjson.dumps(good).decode().replace('"name":"s"', '"name":"s","name":"t"')
    if style == "spaced":
        text = text.replace(":", " : ").replace("http : //x : 80", "http://x:80")
    elif style == "escaped colons":
        # As many escaped colons as the dropped key had: the counts alone would balance.
        text = text.replace("http://x:80", "http\\u003a//x:80")
    elif style == "surrogate":  # orjson refuses the text; json reads it
        text = text.replace('"url"', '"\\ud800"')
    for items in (decoded(text.encode()), decoded((text + "\n").encode())):
        (item,) = items
        assert isinstance(item, Rejection), item
        assert item.reason == Reason.DUPLICATE_KEY
        assert item.detail.startswith("span has the key 'name' more than once")


def test_text_orjson_would_write_is_parsed_once() -> None:
    """The exporters' text (orjson's own) takes the fast path: no second parse."""
    data = json.dumps(one_span_request([]), separators=(",", ":")).encode()
    parsed = parse_json(data + b"\n", Position(), DEFAULT_LIMITS)
    assert isinstance(parsed, ParsedJson) and parsed.fast and parsed.repeated_keys is None


# -- documents too large to parse whole ---------------------------------------------------


@pytest.mark.parametrize("pretty", [True, False])
def test_a_document_over_the_cap_is_refused_with_how_to_split_it(
    tmp_path: Path, pretty: bool
) -> None:
    """One (pretty or compact) document over --max-record-bytes: one record, and a jq command."""
    # Twelve resources of ten spans: the shape of a saved batch of requests.
    doc = {
        "resourceSpans": [
            otlp_json_from_proto(sdk_request(10, service_name=f"svc-{n}"))["resourceSpans"][0]
            for n in range(12)
        ]
    }
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc, indent=2 if pretty else None) + "\n")
    limits = DecodeLimits(max_record_bytes=10_000)
    with Store.open(tmp_path / "store.duckdb") as store:
        report = ingest([path], store, limits=limits, progress=False)
        ((reason, detail, line),) = store.query("SELECT Reason, Detail, Line FROM quarantine")
    assert (report.spans_accepted, report.rows_quarantined) == (0, 1)
    assert reason == "record_too_large" and line is None
    assert isinstance(detail, str)
    assert "jq -c '.resourceSpans[] | {resourceSpans: [.]}'" in detail
    assert str(path) in detail and "--max-record-bytes" in detail

    # The advice works: the split file streams in under the same cap.
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    target = tmp_path / "big.split.jsonl"
    command = detail.split("memory: ", 1)[1].split(" (docs/", 1)[0]
    subprocess.run(command, shell=True, check=True, cwd=tmp_path)
    with Store.open(tmp_path / "split.duckdb") as store:
        report = ingest([target], store, limits=limits, progress=False)
    assert (report.spans_accepted, report.rows_quarantined) == (120, 0)


def test_json_lines_with_an_oversized_first_line_keep_the_rest(tmp_path: Path) -> None:
    """A first line over the cap is that line's record only; later lines land and resume."""
    huge = json.dumps(otlp_json_from_proto(sdk_request(80))).encode() + b"\n"
    path = tmp_path / "spans.jsonl"
    path.write_bytes(huge + b"\n" + b"".join(synthetic_lines(30, spans_per_line=10, seed=1)))
    limits = DecodeLimits(max_record_bytes=10_000)
    with Store.open(tmp_path / "store.duckdb") as store:
        report = ingest([path], store, limits=limits, progress=False)
        assert (report.spans_accepted, report.rows_quarantined) == (30, 1)
        assert store.query("SELECT Reason, Line, ByteOffset FROM quarantine") == [
            ("record_too_large", 1, 0)
        ]
        with path.open("ab") as handle:
            handle.write(b"".join(synthetic_lines(20, spans_per_line=10, seed=2)))
        again = ingest([path], store, limits=limits, progress=False)
        (source,) = again.sources
        assert source.resumed_from == path.stat().st_size - len(
            b"".join(synthetic_lines(20, spans_per_line=10, seed=2))
        )
        assert (again.spans_accepted, again.rows_quarantined) == (20, 0)


# -- dictionary-encoded shared maps ---------------------------------------------------


def test_shared_resource_and_scope_maps_are_stored_per_span(tmp_path: Path) -> None:
    """Spans of different resources and scopes in one batch keep their own maps."""

    def resource_spans(service: str, scopes: list[tuple[str, str]]) -> dict[str, Any]:
        return {
            "resource": {
                "attributes": [{"key": "service.name", "value": {"stringValue": service}}]
            },
            "scopeSpans": [
                {
                    "scope": {
                        "name": scope,
                        "attributes": [{"key": "scope.k", "value": {"stringValue": scope}}],
                    },
                    "spans": [
                        {
                            "traceId": TRACE,
                            "spanId": span_id,
                            "name": span_id,
                            "startTimeUnixNano": "1",
                            "endTimeUnixNano": "2",
                        }
                    ],
                }
                for scope, span_id in scopes
            ],
        }

    lines = [
        {"resourceSpans": [resource_spans("a", [("s1", "00000000000000a1")])]},
        {
            "resourceSpans": [
                resource_spans("b", [("s1", "00000000000000b1"), ("s2", "00000000000000b2")]),
                {
                    "scopeSpans": [
                        {
                            "spans": [
                                {
                                    "traceId": TRACE,
                                    "spanId": "00000000000000c1",
                                    "startTimeUnixNano": "1",
                                    "endTimeUnixNano": "2",
                                }
                            ]
                        }
                    ]
                },
            ]
        },
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with Store.open(tmp_path / "store.duckdb") as store:
        ingest([path], store, progress=False)
        rows = store.query(
            "SELECT SpanId, ServiceName, ResourceAttributes, ScopeName, ScopeAttributes "
            "FROM otel_traces ORDER BY SpanId"
        )
    assert rows == [
        ("00000000000000a1", "a", {"service.name": "a"}, "s1", {"scope.k": "s1"}),
        ("00000000000000b1", "b", {"service.name": "b"}, "s1", {"scope.k": "s1"}),
        ("00000000000000b2", "b", {"service.name": "b"}, "s2", {"scope.k": "s2"}),
        ("00000000000000c1", "", {}, "", {}),
    ]
