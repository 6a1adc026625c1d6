"""OTLP JSON and protobuf decoding: ids, quirks, value encoding, bad input."""

from __future__ import annotations

import base64
import copy
import gzip
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue, KeyValueList
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

from recurscope.pipeline import IngestError, Reason, Rejection, SpanRow
from recurscope.pipeline.decode.otlp import (
    decode_json_bytes,
    decode_proto_bytes,
    decode_request_body,
    format_double,
    iter_json_request,
    iter_proto_request,
)
from recurscope.pipeline.records import DecodeLimits
from recurscope.pipeline.testing import otlp_json_from_proto, sdk_request

FIXTURES = Path(__file__).parent / "fixtures" / "otlp"
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "otlp" / "trace.json"

TRACE = "5b8efff798038103d269b633813fc60c"
SPAN = "eee19b7ec3c1b174"
HUGE_DIGITS = "1234567890" * 500
"""5,000 digits: more than Python's int() converts from text (4,300)."""


def request(*spans: dict[str, Any], resource: Any = None, scope: Any = None) -> dict[str, Any]:
    """An OTLP JSON request with one resource and one scope holding ``spans``."""
    rs: dict[str, Any] = {"scopeSpans": [{"spans": list(spans)}]}
    if resource is not None:
        rs["resource"] = resource
    if scope is not None:
        rs["scopeSpans"][0]["scope"] = scope
    return {"resourceSpans": [rs]}


def span(**fields: Any) -> dict[str, Any]:
    """A valid OTLP JSON span; keyword arguments override or add fields."""
    base: dict[str, Any] = {
        "traceId": TRACE,
        "spanId": SPAN,
        "name": "s",
        "kind": 1,
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000000000001000",
    }
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


MARK = "bad-broken-text"
"""Stands for invalid text in protobuf built with the proto classes (which refuse it)."""


def broken(data: bytes) -> bytes:
    """Serialized protobuf with every :data:`MARK` made invalid UTF-8, at the same length."""
    assert MARK.encode() in data
    return data.replace(MARK.encode(), b"bad-\xff\xfeoken-text")


def decode(obj: Any, limits: DecodeLimits | None = None) -> list[SpanRow | Rejection]:
    return list(iter_json_request(obj, limits=limits or DecodeLimits()))


def only_row(obj: Any) -> SpanRow:
    items = decode(obj)
    assert len(items) == 1 and isinstance(items[0], SpanRow), items
    return items[0]


def only_rejection(obj: Any, limits: DecodeLimits | None = None) -> Rejection:
    items = decode(obj, limits)
    assert len(items) == 1 and isinstance(items[0], Rejection), items
    return items[0]


def attribute(value: dict[str, Any]) -> str:
    """The stored text of one attribute value, decoded through OTLP JSON."""
    row = only_row(request(span(attributes=[{"key": "k", "value": value}])))
    text: str = row.attributes["k"]
    return text


# -- ids ----------------------------------------------------------------------


class TestIds:
    def test_sdk_json_and_protobuf_ids_match_the_protobuf_oracle_byte_for_byte(self) -> None:
        """Ids decoded from the real JSON file exporter and from protobuf equal the proto bytes."""
        from opentelemetry.exporter.otlp.json.file import FileSpanExporter
        from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
            InMemorySpanExporter,
        )

        text = io.StringIO()
        memory = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(FileSpanExporter(stream=text)))
        provider.add_span_processor(SimpleSpanProcessor(memory))
        tracer = provider.get_tracer("t")
        with tracer.start_as_current_span("a"):
            with tracer.start_as_current_span("b"):
                pass
            with tracer.start_as_current_span("c"):
                pass
        oracle = ExportTraceServiceRequest.FromString(
            encode_spans(memory.get_finished_spans()).SerializeToString()
        )
        expected = {
            (s.trace_id.hex(), s.span_id.hex(), s.parent_span_id.hex())
            for rs in oracle.resource_spans
            for ss in rs.scope_spans
            for s in ss.spans
        }
        assert len(expected) == 3

        from_json = {
            (r.trace_id, r.span_id, r.parent_span_id)
            for line in text.getvalue().splitlines()
            for r in decode_json_bytes(line.encode())
            if isinstance(r, SpanRow)
        }
        from_proto = {
            (r.trace_id, r.span_id, r.parent_span_id)
            for r in decode_proto_bytes(oracle.SerializeToString())
            if isinstance(r, SpanRow)
        }
        assert from_json == expected
        assert from_proto == expected

    def test_protobuf_json_format_misreads_hex_ids_which_is_why_we_decode_by_hand(self) -> None:
        """json_format.Parse reads OTLP's hex ids as base64: the bytes come out wrong."""
        doc = request(span())
        parsed = json_format.Parse(json.dumps(doc), ExportTraceServiceRequest())
        wrong = parsed.resource_spans[0].scope_spans[0].spans[0].trace_id
        assert wrong.hex() != TRACE
        assert only_row(doc).trace_id == TRACE

    @settings(max_examples=60, deadline=None)
    @given(
        trace=st.binary(min_size=16, max_size=16).filter(any),
        span_id=st.binary(min_size=8, max_size=8).filter(any),
        parent=st.binary(min_size=8, max_size=8),
        upper=st.booleans(),
    )
    def test_any_hex_id_round_trips_to_the_protobuf_bytes(
        self, trace: bytes, span_id: bytes, parent: bytes, upper: bool
    ) -> None:
        """For any ids, hex in either case decodes to exactly the bytes protobuf carries."""
        message = ExportTraceServiceRequest(
            resource_spans=[
                ResourceSpans(
                    scope_spans=[
                        ScopeSpans(
                            spans=[
                                Span(
                                    trace_id=trace,
                                    span_id=span_id,
                                    parent_span_id=parent,
                                    start_time_unix_nano=1,
                                    end_time_unix_nano=2,
                                )
                            ]
                        )
                    ]
                )
            ]
        )
        doc = otlp_json_from_proto(message)
        if upper:
            s = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
            for key in ("traceId", "spanId", "parentSpanId"):
                if key in s:
                    s[key] = s[key].upper()
        (json_row,) = decode_json_bytes(json.dumps(doc).encode())
        (proto_row,) = decode_proto_bytes(message.SerializeToString())
        assert isinstance(json_row, SpanRow) and isinstance(proto_row, SpanRow)
        expected_parent = "" if not any(parent) else parent.hex()
        for row in (json_row, proto_row):
            assert bytes.fromhex(row.trace_id) == trace
            assert bytes.fromhex(row.span_id) == span_id
            assert row.parent_span_id == expected_parent

    @pytest.mark.parametrize(
        ("field", "value", "needle"),
        [
            ("traceId", "abc", "not 32 hex digits"),
            ("traceId", "zz" * 16, "not 32 hex digits"),
            ("traceId", "0" * 32, "all zero"),
            ("traceId", "", "missing"),
            ("traceId", ..., "missing"),
            ("spanId", "0" * 16, "all zero"),
            ("spanId", "12345678901234567", "not 16 hex digits"),
            ("parentSpanId", "xyz", "not 16 hex digits"),
            ("traceId", 12, "must be a string"),
        ],
    )
    def test_bad_ids_are_quarantined_as_invalid_id(
        self, field: str, value: Any, needle: str
    ) -> None:
        """Ids of the wrong length, non-hex, all zero or missing quarantine the span."""
        rejection = only_rejection(request(span(**{field: value})))
        expected = Reason.WRONG_TYPE if needle == "must be a string" else Reason.INVALID_ID
        assert rejection.reason == expected
        assert needle in rejection.detail

    def test_base64_ids_get_a_hint_about_proto3_json(self) -> None:
        """A base64 trace id (proto3 canonical JSON) is rejected with an explanation."""
        b64 = base64.b64encode(bytes.fromhex(TRACE)).decode()
        rejection = only_rejection(request(span(traceId=b64)))
        assert rejection.reason == Reason.INVALID_ID
        assert "base64" in rejection.detail

    def test_empty_and_zero_parent_mean_root(self) -> None:
        """An empty or all-zero parentSpanId is stored as '' (a root span)."""
        assert only_row(request(span(parentSpanId=""))).parent_span_id == ""
        assert only_row(request(span(parentSpanId="0" * 16))).parent_span_id == ""
        assert only_row(request(span())).parent_span_id == ""


# -- quirks the Collector accepts -------------------------------------------------


class TestQuirks:
    def test_reference_example_decodes(self) -> None:
        """The OTLP repository's example request decodes with its ids in lower-case hex."""
        if not REFERENCE.exists():
            pytest.skip("shared/reference/otlp/trace.json is not present")
        (row,) = decode_json_bytes(REFERENCE.read_bytes())
        assert isinstance(row, SpanRow)
        assert row.trace_id == TRACE
        assert row.parent_span_id == "eee19b7ec3c1b173"
        assert row.kind == "Server"
        assert row.service_name == "my.service"
        assert row.scope_attributes == {"my.scope.attribute": "some scope attribute"}

    def test_pretty_fixture_covers_case_strings_numbers_and_enum_names(self) -> None:
        """Upper-case hex, int64 as strings or numbers, enum names and empty resource/scope."""
        rows = [r for r in decode_json_bytes((FIXTURES / "pretty.json").read_bytes())]
        assert all(isinstance(r, SpanRow) for r in rows)
        first, second, third = rows
        assert isinstance(first, SpanRow) and isinstance(second, SpanRow)
        assert isinstance(third, SpanRow)
        assert first.trace_id == second.trace_id == "0af7651916cd43dd8448eb211c80319c"
        assert first.kind == "Server" and first.status_code == "Ok"
        assert first.attributes["recurscope.history.size"] == "12"
        assert first.attributes["recurscope.history.ops"] == '["filter","slice"]'
        assert second.start_time_unix_nano == 1_700_000_000_050_000_000
        assert second.status_code == "Error" and second.status_message == "budget exceeded"
        assert second.links[0].trace_state == "rojo=00f067aa0ba902b7"
        assert third.service_name == "" and third.scope_name == "" and third.kind == "Unspecified"

    def test_snake_case_keys_and_legacy_instrumentation_library_spans(self) -> None:
        """snake_case keys, uint64 above 2^63 as a string and pre-0.15 library spans decode."""
        rows = list(decode_json_bytes((FIXTURES / "snake_case.json").read_bytes()))
        snake, legacy = rows
        assert isinstance(snake, SpanRow) and isinstance(legacy, SpanRow)
        assert snake.service_name == "snake-service"
        assert snake.trace_id == "0102030405060708090a0b0c0d0e0f10"
        assert snake.parent_span_id == ""
        assert snake.kind == "Client" and snake.status_code == "Error"
        assert snake.end_time_unix_nano == 2**64 - 1
        assert snake.trace_state == "k=v"
        assert snake.attributes == {
            "n": "-7",
            "b": "AAEC/w==",
            "kv": '{"a":[false,null],"z":1e+21}',
        }
        assert legacy.scope_name == "legacy-lib" and legacy.scope_version == "0.9"

    @pytest.mark.parametrize(
        ("kind", "expected"),
        [
            (0, "Unspecified"),
            (1, "Internal"),
            (2, "Server"),
            (3, "Client"),
            (4, "Producer"),
            (5, "Consumer"),
            ("SPAN_KIND_PRODUCER", "Producer"),
            (9, ""),
            (..., "Unspecified"),
        ],
    )
    def test_span_kind_is_stored_as_the_clickhouse_exporter_writes_it(
        self, kind: Any, expected: str
    ) -> None:
        """Kinds become 'Server', 'Internal', ...; an unknown number becomes '' as in pdata."""
        assert only_row(request(span(kind=kind))).kind == expected

    @pytest.mark.parametrize(
        ("status", "expected"),
        [
            ({}, "Unset"),
            ({"code": 1}, "Ok"),
            ({"code": "STATUS_CODE_ERROR"}, "Error"),
            ({"code": "2"}, "Error"),
        ],
    )
    def test_status_code_strings(self, status: dict[str, Any], expected: str) -> None:
        """Status codes as numbers or names become 'Unset', 'Ok', 'Error'."""
        assert only_row(request(span(status=status))).status_code == expected

    def test_int64_as_numbers_or_strings(self) -> None:
        """Times and intValues arrive as JSON numbers or strings and decode the same."""
        as_numbers = only_row(
            request(
                span(
                    startTimeUnixNano=1700000000000000000,
                    endTimeUnixNano=1700000000000000001,
                    attributes=[{"key": "i", "value": {"intValue": -9223372036854775808}}],
                )
            )
        )
        as_strings = only_row(
            request(
                span(
                    startTimeUnixNano="1700000000000000000",
                    endTimeUnixNano="1700000000000000001",
                    attributes=[{"key": "i", "value": {"intValue": "-9223372036854775808"}}],
                )
            )
        )
        assert as_numbers == as_strings
        assert as_numbers.attributes["i"] == "-9223372036854775808"

    def test_empty_resource_scope_and_request(self) -> None:
        """Missing resource or scope give empty strings and maps; an empty request has no spans."""
        row = only_row(request(span(), resource={}, scope={}))
        assert row.service_name == "" and row.resource_attributes == {}
        assert row.scope_name == "" and row.scope_version == ""
        assert decode({}) == []
        assert decode({"resourceSpans": []}) == []

    def test_service_name_is_the_first_string_service_name(self) -> None:
        """ServiceName comes from the first service.name if it is a string (pdata Map.Get)."""
        attrs = [
            {"key": "service.name", "value": {"stringValue": "first"}},
            {"key": "service.name", "value": {"stringValue": "second"}},
        ]
        row = only_row(request(span(), resource={"attributes": attrs}))
        assert row.service_name == "first"
        assert row.resource_attributes["service.name"] == "second"
        numeric = [{"key": "service.name", "value": {"intValue": "3"}}]
        assert only_row(request(span(), resource={"attributes": numeric})).service_name == ""

    def test_unknown_fields_and_nulls_are_ignored(self) -> None:
        """Unknown fields are skipped and null means absent, as the Collector's reader does."""
        row = only_row(
            request(span(flags=256, droppedAttributesCount=2, extra={"x": 1}, events=None))
        )
        assert row.events == ()

    def test_events_and_links(self) -> None:
        """Events keep their times and attributes; links keep ids, state and attributes."""
        row = only_row(
            request(
                span(
                    events=[
                        {
                            "timeUnixNano": "1700000000000000500",
                            "name": "e",
                            "attributes": [{"key": "a", "value": {"intValue": 1}}],
                        }
                    ],
                    links=[
                        {
                            "traceId": TRACE.upper(),
                            "spanId": SPAN,
                            "traceState": "x=y",
                            "attributes": [{"key": "l", "value": {"boolValue": True}}],
                        },
                        {},
                    ],
                )
            )
        )
        assert row.events[0].time_unix_nano == 1_700_000_000_000_000_500
        assert row.events[0].attributes == {"a": "1"}
        assert row.links[0].trace_id == TRACE and row.links[0].attributes == {"l": "true"}
        assert row.links[1].trace_id == "" and row.links[1].span_id == ""


# -- value encoding (pcommon.Value.AsString) ------------------------------------


class TestValueEncoding:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (0.1, "0.1"),
            (1 / 3, "0.3333333333333333"),
            (123456789.0, "123456789"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1.25e-10, "1.25e-10"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (1e16, "10000000000000000"),
            (math.nan, "json: unsupported value: NaN"),
            (math.inf, "json: unsupported value: +Inf"),
            (-math.inf, "json: unsupported value: -Inf"),
        ],
    )
    def test_doubles_use_gos_es6_number_format(self, value: float, expected: str) -> None:
        """Doubles are written like the Collector's float64AsString (shortest, ES6 cutoffs)."""
        assert format_double(value) == expected

    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ({"stringValue": "plain <text> & more"}, "plain <text> & more"),
            ({"boolValue": True}, "true"),
            ({"boolValue": False}, "false"),
            ({"intValue": "42"}, "42"),
            ({"intValue": 42}, "42"),
            ({"doubleValue": 2.5}, "2.5"),
            ({"doubleValue": 3}, "3"),
            ({"doubleValue": "NaN"}, "json: unsupported value: NaN"),
            ({"doubleValue": "-Infinity"}, "json: unsupported value: -Inf"),
            ({"bytesValue": "AAEC"}, "AAEC"),
            ({}, ""),
            (
                {
                    "arrayValue": {
                        "values": [
                            {"stringValue": "a<b"},
                            {"intValue": "1"},
                            {"boolValue": True},
                            {"doubleValue": 0.5},
                            {"bytesValue": "/w=="},
                            {},
                        ]
                    }
                },
                '["a\\u003cb",1,true,0.5,"/w==",null]',
            ),
            ({"arrayValue": {"values": [{"doubleValue": "NaN"}]}}, ""),
            ({"arrayValue": {}}, "[]"),
            (
                {
                    "kvlistValue": {
                        "values": [
                            {"key": "z", "value": {"stringValue": "é & \u2028"}},
                            {"key": "a", "value": {"arrayValue": {"values": []}}},
                            {"key": "m", "value": {"kvlistValue": {"values": []}}},
                        ]
                    }
                },
                '{"a":[],"m":{},"z":"é \\u0026 \\u2028"}',
            ),
            ({"arrayValue": {"values": [{"stringValue": 'q"\n'}]}}, '["q\\"\\n"]'),
        ],
    )
    def test_attribute_values_encode_like_the_clickhouse_exporter(
        self, value: dict[str, Any], expected: str
    ) -> None:
        """Attributes become text: bools true/false, ints decimal, arrays/kvlists Go JSON."""
        assert attribute(value) == expected

    def test_duplicate_attribute_keys_keep_the_last_value(self) -> None:
        """A repeated key keeps the last value, as the exporter's Go map does."""
        attrs = [
            {"key": "k", "value": {"stringValue": "1"}},
            {"key": "k", "value": {"stringValue": "2"}},
        ]
        assert only_row(request(span(attributes=attrs))).attributes == {"k": "2"}

    def test_protobuf_and_json_encode_every_value_type_identically(self) -> None:
        """The same request through protobuf and through OTLP JSON gives equal rows."""

        def kv(key: str, value: AnyValue) -> KeyValue:
            return KeyValue(key=key, value=value)

        values = [
            kv("s", AnyValue(string_value="x<y")),
            kv("b", AnyValue(bool_value=True)),
            kv("i", AnyValue(int_value=-5)),
            kv("d", AnyValue(double_value=1e-9)),
            kv("y", AnyValue(bytes_value=b"\x00\xff")),
            kv("e", AnyValue()),
            kv(
                "a",
                AnyValue(
                    array_value=ArrayValue(
                        values=[
                            AnyValue(string_value="q"),
                            AnyValue(double_value=2.0),
                            AnyValue(bytes_value=b"\x01"),
                            AnyValue(
                                kvlist_value=KeyValueList(
                                    values=[kv("b", AnyValue(int_value=1)), kv("a", AnyValue())]
                                )
                            ),
                        ]
                    )
                ),
            ),
        ]
        message = ExportTraceServiceRequest(
            resource_spans=[
                ResourceSpans(
                    scope_spans=[
                        ScopeSpans(
                            spans=[
                                Span(
                                    trace_id=bytes.fromhex(TRACE),
                                    span_id=bytes.fromhex(SPAN),
                                    kind=Span.SPAN_KIND_CONSUMER,
                                    start_time_unix_nano=10,
                                    end_time_unix_nano=20,
                                    attributes=values,
                                    events=[Span.Event(time_unix_nano=15, name="ev")],
                                )
                            ]
                        )
                    ]
                )
            ]
        )
        (from_proto,) = iter_proto_request(message)
        (from_json,) = decode_json_bytes(json.dumps(otlp_json_from_proto(message)).encode())
        assert from_proto == from_json
        assert isinstance(from_proto, SpanRow)
        assert from_proto.attributes["a"] == '["q",2,"AQ==",{"a":null,"b":1}]'
        assert from_proto.attributes["d"] == "1e-9"


# -- bad input ---------------------------------------------------------------------


class TestBadInput:
    @pytest.mark.parametrize(
        ("override", "reason"),
        [
            ({"attributes": "nope"}, Reason.WRONG_TYPE),
            ({"attributes": [{"key": "k", "value": {"intValue": "12x"}}]}, Reason.INVALID_VALUE),
            (
                {"attributes": [{"key": "k", "value": {"intValue": "9223372036854775808"}}]},
                Reason.INVALID_VALUE,
            ),
            ({"attributes": [{"key": "k", "value": {"intValue": 1.5}}]}, Reason.WRONG_TYPE),
            ({"attributes": [{"key": "k", "value": {"boolValue": "true"}}]}, Reason.WRONG_TYPE),
            ({"attributes": [{"key": "k", "value": {"bytesValue": "***"}}]}, Reason.INVALID_VALUE),
            (
                {"attributes": [{"key": "k", "value": {"doubleValue": "1.2.3"}}]},
                Reason.INVALID_VALUE,
            ),
            ({"attributes": [{"key": "k", "value": "flat"}]}, Reason.WRONG_TYPE),
            ({"kind": "SPAN_KIND_BOGUS"}, Reason.INVALID_VALUE),
            ({"kind": True}, Reason.WRONG_TYPE),
            ({"startTimeUnixNano": "-5"}, Reason.INVALID_VALUE),
            ({"startTimeUnixNano": str(2**64)}, Reason.INVALID_VALUE),
            ({"endTimeUnixNano": 1.5e18}, Reason.WRONG_TYPE),
            ({"name": 7}, Reason.WRONG_TYPE),
            ({"events": {}}, Reason.WRONG_TYPE),
            ({"links": [{"traceId": "nothex"}]}, Reason.INVALID_ID),
            ({"status": "ok"}, Reason.WRONG_TYPE),
        ],
    )
    def test_a_bad_span_is_quarantined_and_its_neighbour_lands(
        self, override: dict[str, Any], reason: Reason
    ) -> None:
        """Each kind of malformed field quarantines only its own span, with a reason."""
        good = span(spanId="00000000000000aa")
        items = decode(request(span(**override), good))
        assert [type(i) for i in items] == [Rejection, SpanRow]
        rejection = items[0]
        assert isinstance(rejection, Rejection)
        assert rejection.reason == reason, rejection.detail
        assert rejection.position.span_index == 0
        assert rejection.trace_id == TRACE
        assert '"spanId"' in str(rejection.excerpt)

    def test_bad_resource_quarantines_each_of_its_spans(self) -> None:
        """A malformed resource quarantines every span under it, counted per span."""
        doc = request(span(), span(spanId="00000000000000aa"), resource={"attributes": 5})
        items = decode(doc)
        assert len(items) == 2
        assert all(isinstance(i, Rejection) and i.reason == Reason.WRONG_TYPE for i in items)
        first = items[0]
        assert isinstance(first, Rejection) and "resource" in first.detail

    def test_structure_errors_quarantine_the_enclosing_object(self) -> None:
        """A request that is not an object, or a spans list that is not a list, is one record."""
        assert only_rejection([1, 2]).reason == Reason.WRONG_TYPE
        assert only_rejection({"resourceSpans": "x"}).reason == Reason.WRONG_TYPE
        assert only_rejection({"resourceSpans": [{"scopeSpans": [{"spans": 3}]}]}).reason == (
            Reason.WRONG_TYPE
        )

    def test_attribute_over_the_cap_quarantines_the_span(self) -> None:
        """A value longer than max_attribute_bytes quarantines its span (configurable)."""
        big = span(attributes=[{"key": "k", "value": {"stringValue": "é" * 600}}])
        small_cap = DecodeLimits(max_attribute_bytes=1000)
        assert only_rejection(request(big), small_cap).reason == Reason.ATTRIBUTE_TOO_LARGE
        assert isinstance(decode(request(big))[0], SpanRow)

    def test_deep_nesting_is_quarantined(self) -> None:
        """Arrays nested deeper than max_nesting_depth quarantine the span, never crash."""
        value: dict[str, Any] = {"stringValue": "leaf"}
        for _ in range(10):
            value = {"arrayValue": {"values": [value]}}
        doc = request(span(attributes=[{"key": "deep", "value": value}]))
        rejection = only_rejection(doc, DecodeLimits(max_nesting_depth=5))
        assert rejection.reason == Reason.TOO_DEEPLY_NESTED
        assert isinstance(decode(doc)[0], SpanRow)

    def test_lone_surrogate_escapes_are_invalid_utf8(self) -> None:
        """A JSON escape of a lone surrogate cannot be stored as text: INVALID_UTF8."""
        line = json.dumps(request(span(name="x"))).replace('"name": "x"', '"name": "\\ud800"')
        (rejection,) = decode_json_bytes(line.encode())
        assert isinstance(rejection, Rejection) and rejection.reason == Reason.INVALID_UTF8

    @pytest.mark.parametrize(
        ("data", "reason"),
        [
            (b'{"resourceSpans": [', Reason.TRUNCATED_JSON),
            (b"not json", Reason.INVALID_JSON),
            (b'{"a": NaN}', Reason.INVALID_JSON),
            (b'{"resourceSpans": []} trailing', Reason.INVALID_JSON),
            (b'{"name": "caf\xe9"}', Reason.INVALID_UTF8),
            (b"[" * 100_000, Reason.TOO_DEEPLY_NESTED),
            (b'{"a": 1' + b"0" * 5000 + b"}", Reason.INVALID_VALUE),
        ],
    )
    def test_undecodable_bytes_become_one_rejection(self, data: bytes, reason: Reason) -> None:
        """Bytes that are not a JSON object are one quarantined record with a reason."""
        (rejection,) = decode_json_bytes(data)
        assert isinstance(rejection, Rejection)
        assert rejection.reason == reason, rejection.detail

    @pytest.mark.parametrize(
        "override",
        [
            {"startTimeUnixNano": HUGE_DIGITS},
            {"endTimeUnixNano": "+" + HUGE_DIGITS},
            {"events": [{"timeUnixNano": HUGE_DIGITS, "name": "e"}]},
            {"attributes": [{"key": "k", "value": {"intValue": HUGE_DIGITS}}]},
            {"attributes": [{"key": "k", "value": {"int_value": "-" + HUGE_DIGITS}}]},
            {"attributes": [{"key": "k", "value": {"intValue": HUGE_DIGITS, "x": 1}}]},
            {
                "attributes": [
                    {"key": "k", "value": {"arrayValue": {"values": [{"intValue": HUGE_DIGITS}]}}}
                ]
            },
            {
                "attributes": [
                    {
                        "key": "k",
                        "value": {
                            "kvlistValue": {
                                "values": [{"key": "n", "value": {"intValue": HUGE_DIGITS}}]
                            }
                        },
                    }
                ]
            },
            {"kind": HUGE_DIGITS},
            {"kind": "-" + HUGE_DIGITS},
            {"status": {"code": HUGE_DIGITS}},
        ],
    )
    def test_an_integer_string_of_thousands_of_digits_quarantines_its_span(
        self, override: dict[str, Any]
    ) -> None:
        """Past int()'s 4,300-digit limit, a decimal string is invalid_value (ingest and serve)."""
        data = json.dumps(request(span(**override), span(spanId="00000000000000aa"))).encode()
        body = decode_request_body(data, content_type="application/json")
        for items in (list(decode_json_bytes(data)), [*body.rejections, *body.rows]):
            assert [type(i) for i in items] == [Rejection, SpanRow]
            rejection = items[0]
            assert isinstance(rejection, Rejection)
            assert rejection.reason == Reason.INVALID_VALUE
            assert "5000 digits, out of range" in rejection.detail
            assert len(rejection.detail) < 200

    def test_leading_zeros_do_not_count_as_digits(self) -> None:
        """Zeros before an integer's digits are read as Go reads them, however many."""
        row = only_row(
            request(
                span(
                    startTimeUnixNano="0" * 5000 + "1700000000000000000",
                    attributes=[{"key": "k", "value": {"intValue": "-" + "0" * 5000 + "7"}}],
                )
            )
        )
        assert row.start_time_unix_nano == 1_700_000_000_000_000_000
        assert row.attributes == {"k": "-7"}

    @pytest.mark.parametrize(
        ("before", "after", "where"),
        [
            ('"name":"s"', '"name":"s","name":"t"', "span"),
            ('"kind":1', '"kind":1,"kind":2', "span"),
            (
                '{"stringValue":"v"}',
                '{"stringValue":"v","stringValue":"w"}',
                "span.attributes[0].value",
            ),
            ('"key":"k"', '"key":"k","key":"j"', "span.attributes[0]"),
            ('"events":[{', '"events":[{"name":"a",', "span.events[0]"),
            ('"links":[{', '"links":[{"spanId":"eee19b7ec3c1b170",', "span.links[0]"),
            ('"status":{', '"status":{"code":1,', "span.status"),
        ],
    )
    def test_a_key_repeated_in_a_span_quarantines_that_span(
        self, before: str, after: str, where: str
    ) -> None:
        """A span holding an object that names a key twice is duplicate_key; the next one lands."""
        bad = span(
            attributes=[{"key": "k", "value": {"stringValue": "v"}}],
            events=[{"timeUnixNano": "1700000000000000500", "name": "e"}],
            links=[{"traceId": TRACE, "spanId": "eee19b7ec3c1b171"}],
            status={"code": 2, "message": "m"},
        )
        text = json.dumps(request(bad, span(spanId="00000000000000aa")), separators=(",", ":"))
        assert before in text
        data = text.replace(before, after, 1).encode()  # in the first span
        body = decode_request_body(data, content_type="application/json")
        for items in (list(decode_json_bytes(data)), [*body.rejections, *body.rows]):
            assert [type(i) for i in items] == [Rejection, SpanRow]
            rejection = items[0]
            assert isinstance(rejection, Rejection)
            assert rejection.reason == Reason.DUPLICATE_KEY
            assert rejection.detail.startswith(f"{where} has the key ")
            assert "more than once" in rejection.detail
            assert (rejection.trace_id, rejection.position.span_index) == (TRACE, 0)

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            # The resource or scope: each span under it, counted per span.
            (
                '{"resourceSpans":[{"resource":{"attributes":[],"attributes":[]},'
                '"scopeSpans":[{"spans":[A,B]}]},{"scopeSpans":[{"spans":[C]}]}]}',
                [(0, "resource: resource has the key 'attributes'"), (1, "resource: "), (2, "")],
            ),
            (
                '{"resourceSpans":[{"scopeSpans":[{"scope":{"name":"a","name":"b"},'
                '"spans":[A,B]},{"spans":[C]}]}]}',
                [(0, "scope: scope has the key 'name'"), (1, "scope: "), (2, "")],
            ),
            # An entry that lists spans twice: the entry is one record.
            (
                '{"resourceSpans":[{"scopeSpans":[{"spans":[A],"spans":[B]},{"spans":[C]}]}]}',
                [(0, "scopeSpans entry has the key 'spans'"), (1, "")],
            ),
            (
                '{"resourceSpans":[{"scopeSpans":[{"spans":[A]}],"scopeSpans":[]},'
                '{"scopeSpans":[{"spans":[C]}]}]}',
                [(0, "resourceSpans entry has the key 'scopeSpans'"), (1, "")],
            ),
            # The request itself: the line.
            (
                '{"resourceSpans":[{"scopeSpans":[{"spans":[A]}]}],"resourceSpans":[]}',
                [(None, "the request has the key 'resourceSpans'")],
            ),
        ],
    )
    def test_a_key_repeated_above_the_spans_quarantines_what_it_belongs_to(
        self, text: str, expected: list[tuple[int | None, str]]
    ) -> None:
        """Like other errors above the span level: per span under a resource or scope."""
        for name, span_id in (("A", "a1"), ("B", "a2"), ("C", "a3")):
            text = text.replace(name, json.dumps(span(spanId="00000000000000" + span_id)))
        items = list(decode_json_bytes(text.encode()))
        got = [
            (item.position.span_index, item.detail if isinstance(item, Rejection) else "")
            for item in items
        ]
        assert len(got) == len(expected)
        for (index, detail), (want_index, want_detail) in zip(got, expected, strict=True):
            assert index == want_index and detail.startswith(want_detail), (detail, want_detail)
            if want_detail:
                assert "more than once" in detail
        reasons = {i.reason for i in items if isinstance(i, Rejection)}
        assert reasons == {Reason.DUPLICATE_KEY}

    def test_a_repeated_attribute_key_is_not_a_repeated_json_key(self) -> None:
        """Two attributes named alike are two objects, each well-formed: the last value wins."""
        attrs = [
            {"key": "k", "value": {"stringValue": "1"}},
            {"key": "k", "value": {"stringValue": "2"}},
        ]
        (row,) = decode_json_bytes(json.dumps(request(span(attributes=attrs))).encode())
        assert isinstance(row, SpanRow) and row.attributes == {"k": "2"}

    def test_record_over_the_cap(self) -> None:
        """A record larger than max_record_bytes is quarantined unparsed."""
        data = json.dumps(request(span())).encode()
        (rejection,) = decode_json_bytes(data, limits=DecodeLimits(max_record_bytes=10))
        assert isinstance(rejection, Rejection) and rejection.reason == Reason.RECORD_TOO_LARGE

    def test_invalid_protobuf(self) -> None:
        """Bytes that are not an ExportTraceServiceRequest become one INVALID_PROTOBUF record."""
        (rejection,) = decode_proto_bytes(b"\x0a\xff\xff\xff\xff\x0f")
        assert isinstance(rejection, Rejection)
        assert rejection.reason == Reason.INVALID_PROTOBUF

    @pytest.mark.parametrize(
        ("place", "path"),
        [
            ("name", "name"),
            ("trace_state", "trace_state"),
            ("attribute key", "attributes[0].key"),
            ("attribute value", "attributes['k'].value.string_value"),
            ("array item", "attributes['a'].value.array_value.values[0].string_value"),
            ("event name", "events[0].name"),
            ("link trace state", "links[0].trace_state"),
            ("status message", "status.message"),
        ],
    )
    def test_invalid_utf8_in_one_protobuf_span_quarantines_only_that_span(
        self, place: str, path: str
    ) -> None:
        """Text that is not UTF-8 in one span is that span's invalid_utf8; its neighbours land."""
        message = sdk_request(3)
        spans = message.resource_spans[0].scope_spans[0].spans
        victim = spans[1]
        del victim.attributes[:], victim.events[:], victim.links[:]
        if place == "name":
            victim.name = MARK
        elif place == "trace_state":
            victim.trace_state = MARK
        elif place == "attribute key":
            victim.attributes.add(key=MARK, value=AnyValue(string_value="v"))
        elif place == "attribute value":
            victim.attributes.add(key="k", value=AnyValue(string_value=MARK))
        elif place == "array item":
            victim.attributes.add(key="k", value=AnyValue(int_value=1))
            items = ArrayValue(values=[AnyValue(string_value=MARK)])
            victim.attributes.add(key="a", value=AnyValue(array_value=items))
        elif place == "event name":
            victim.events.add(time_unix_nano=victim.start_time_unix_nano, name=MARK)
        elif place == "link trace state":
            victim.links.add(trace_id=victim.trace_id, span_id=spans[0].span_id, trace_state=MARK)
        else:
            victim.status.message = MARK
        good = list(iter_proto_request(message))
        body = broken(message.SerializeToString())

        served = decode_request_body(body, content_type="application/x-protobuf")
        for items in (list(decode_proto_bytes(body)), [*served.rows, *served.rejections]):
            items.sort(key=lambda item: item.position.span_index or 0)
            assert items[0] == good[0] and items[2] == good[2]
            rejection = items[1]
            assert isinstance(rejection, Rejection), rejection
            assert rejection.reason == Reason.INVALID_UTF8
            assert rejection.detail.startswith(f"{path} is not UTF-8 text (byte 4")
            assert (rejection.trace_id, rejection.span_id) == (
                victim.trace_id.hex(),
                victim.span_id.hex(),
            )
            assert rejection.position.span_index == 1
            assert "bad-\\\\xff\\\\xfeoken" in str(rejection.excerpt)  # shown, not dropped
        assert served.records == 3

    def test_invalid_utf8_in_a_protobuf_resource_quarantines_each_of_its_spans(self) -> None:
        """A resource or scope with invalid text costs its own spans, not the other resources'."""
        bad_resource = sdk_request(2, service_name=MARK)
        bad_scope = sdk_request(2)
        bad_scope.resource_spans[0].scope_spans[0].scope.version = MARK
        fine = sdk_request(2)
        # Concatenated requests are one request holding every resource (protobuf merges them).
        body = b"".join(part.SerializeToString() for part in (fine, bad_resource, bad_scope, fine))
        items = list(decode_proto_bytes(broken(body)))
        assert [i.reason if isinstance(i, Rejection) else "row" for i in items] == [
            "row",
            "row",
            Reason.INVALID_UTF8,
            Reason.INVALID_UTF8,
            Reason.INVALID_UTF8,
            Reason.INVALID_UTF8,
            "row",
            "row",
        ]
        assert [i.detail for i in items[2:6] if isinstance(i, Rejection)] == [
            "resource: attributes['service.name'].value.string_value is not UTF-8 text "
            "(byte 4: invalid start byte), as protobuf requires of a string",
        ] * 2 + [
            "scope: version is not UTF-8 text (byte 4: invalid start byte), as protobuf "
            "requires of a string",
        ] * 2

    def test_protobuf_that_is_not_only_bad_text_is_still_one_invalid_record(self) -> None:
        """Reading strings as bytes does not make a truncated message readable."""
        message = sdk_request(3)
        message.resource_spans[0].scope_spans[0].spans[1].name = MARK
        body = broken(message.SerializeToString())
        (rejection,) = decode_proto_bytes(body[:-3])
        assert isinstance(rejection, Rejection)
        assert rejection.reason == Reason.INVALID_PROTOBUF

    def test_protobuf_span_with_bad_ids(self) -> None:
        """Protobuf ids of the wrong length are quarantined; the excerpt shows hex, not base64."""
        message = sdk_request(2)
        victim = message.resource_spans[0].scope_spans[0].spans[0]
        victim.span_id = b"\x01\x02"
        items = list(iter_proto_request(message))
        rejections = [i for i in items if isinstance(i, Rejection)]
        assert len(rejections) == 1 and rejections[0].reason == Reason.INVALID_ID
        assert victim.trace_id.hex() in str(rejections[0].excerpt)
        assert sum(isinstance(i, SpanRow) for i in items) == 1


# -- request bodies (for the receiver) ----------------------------------------------


class TestRequestBodies:
    def test_protobuf_json_and_gzip_bodies(self) -> None:
        """The receiver's decoder reads protobuf and JSON bodies, plain or gzip."""
        message = sdk_request(3)
        proto = message.SerializeToString()
        as_json = json.dumps(otlp_json_from_proto(message)).encode()
        results = [
            decode_request_body(proto, content_type="application/x-protobuf"),
            decode_request_body(as_json, content_type="application/json; charset=utf-8"),
            decode_request_body(
                gzip.compress(proto),
                content_type="application/x-protobuf",
                content_encoding="gzip",
            ),
        ]
        assert [len(r.rows) for r in results] == [3, 3, 3]
        assert results[0].rows == results[1].rows == results[2].rows
        assert all(r.records == 3 and not r.rejections for r in results)

    def test_unsupported_content_type_or_encoding_raises_the_named_error(self) -> None:
        """Only an unsupported media type or encoding raises (the receiver answers 415)."""
        with pytest.raises(IngestError, match="application/x-protobuf"):
            decode_request_body(b"", content_type="text/plain")
        with pytest.raises(IngestError, match="gzip"):
            decode_request_body(b"", content_type="application/json", content_encoding="br")

    @pytest.mark.parametrize(
        ("body", "reason"),
        [
            (gzip.compress(b"{}")[:-6], Reason.TRUNCATED_GZIP),
            (b"\x1f\x8b\x08\x00garbage-garbage", Reason.CORRUPT_GZIP),
            (gzip.compress(b" " * 3_000_000), Reason.DECOMPRESSION_LIMIT),
        ],
    )
    def test_bad_gzip_bodies_are_quarantined(self, body: bytes, reason: Reason) -> None:
        """Truncated, corrupt and bomb-like gzip bodies are one rejection each."""
        limits = DecodeLimits(max_decompressed_bytes=1_000_000)
        result = decode_request_body(
            body, content_type="application/json", content_encoding="gzip", limits=limits
        )
        assert not result.rows
        assert [r.reason for r in result.rejections] == [reason]

    def test_ratio_cap_stops_a_bomb_below_the_size_cap(self) -> None:
        """A ratio above max_compression_ratio past the grace size is a decompression limit."""
        limits = DecodeLimits(max_compression_ratio=10, ratio_grace_bytes=1000)
        result = decode_request_body(
            gzip.compress(b"0" * 100_000),
            content_type="application/json",
            content_encoding="gzip",
            limits=limits,
        )
        assert [r.reason for r in result.rejections] == [Reason.DECOMPRESSION_LIMIT]


def test_excerpt_is_a_copy_not_a_live_reference() -> None:
    """Rejections carry text excerpts, so later mutation of the input cannot change them."""
    doc = request(span(traceId="bad"))
    original = copy.deepcopy(doc)
    rejection = only_rejection(doc)
    doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["name"] = "changed"
    assert (
        json.loads(str(rejection.excerpt))
        == original["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    )


@pytest.mark.parametrize("media", ["application/json", "application/x-protobuf"])
def test_a_request_over_the_span_cap_is_one_record_too_large(media: str) -> None:
    """serve's --max-request-spans: refused whole, before rows are built; at the cap, decoded."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest as Request,
    )

    from recurscope.pipeline.decode.otlp import decode_request_body
    from recurscope.pipeline.records import DecodeLimits, Reason

    def body(count: int) -> bytes:
        request = Request()
        scope = request.resource_spans.add().scope_spans.add()
        for index in range(count):
            span = scope.spans.add()
            span.trace_id, span.span_id = bytes(range(1, 17)), (index + 1).to_bytes(8, "big")
            span.name, span.start_time_unix_nano, span.end_time_unix_nano = "s", 1, 2
        if media == "application/json":  # OTLP JSON: hex ids, not protobuf JSON's base64
            spans = [
                {"traceId": "0102030405060708090a0b0c0d0e0f10", "spanId": f"{index + 1:016x}",
                 "name": "s", "startTimeUnixNano": "1", "endTimeUnixNano": "2"}
                for index in range(count)
            ]  # fmt: skip
            return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).encode()
        return request.SerializeToString()

    limits = DecodeLimits(max_request_spans=3)
    over = decode_request_body(body(4), content_type=media, limits=limits)
    assert over.rows == () and [r.reason for r in over.rejections] == [Reason.RECORD_TOO_LARGE]
    assert "--max-request-spans 3" in over.rejections[0].detail
    at = decode_request_body(body(3), content_type=media, limits=limits)
    assert len(at.rows) == 3 and at.rejections == ()
