"""The console exporter formats: OTel Python ConsoleSpanExporter and OTel Go stdouttrace."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Link, SpanKind, Status, StatusCode

from recurscope.pipeline import Store, ingest
from recurscope.pipeline.decode.formats import ReadContext, detect_format, get_format
from recurscope.pipeline.decode.otlp import iter_proto_request
from recurscope.pipeline.records import (
    DEFAULT_LIMITS,
    Checkpoint,
    DecodeLimits,
    Reason,
    Rejection,
    SpanRow,
)

FIXTURES = Path(__file__).parent / "fixtures" / "console"


def read(fmt: str, data: bytes, limits: DecodeLimits = DEFAULT_LIMITS) -> list[SpanRow | Rejection]:
    ctx = ReadContext(source="console.txt", limits=limits)
    stream = io.BufferedReader(io.BytesIO(data))
    return [i for i in get_format(fmt).read(stream, ctx) if not isinstance(i, Checkpoint)]


def rows(items: list[SpanRow | Rejection]) -> list[SpanRow]:
    return [i for i in items if isinstance(i, SpanRow)]


@pytest.fixture
def python_console() -> tuple[bytes, tuple[ReadableSpan, ...]]:
    """Real ConsoleSpanExporter output, and the same spans as the SDK recorded them."""
    out = io.StringIO()
    memory = InMemorySpanExporter()
    provider = TracerProvider(
        resource=Resource.create({"service.name": "py-agent", "service.instance.id": "run-9"})
    )
    provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=out)))
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("example.agent", "1.2")
    attributes: dict[str, Any] = {
        "s": "v <&>",
        "b": True,
        "i": -7,
        "big": 2**62,
        "f": 0.1,
        "tiny": 1e-7,
        "nan": float("nan"),
        "strings": ["filter", "map"],
        "ints": [1, 2],
        "bools": [False],
        "floats": [0.5, 2.0],
        "unicode": "héllo ✓",
    }
    with tracer.start_as_current_span(
        "outer", kind=SpanKind.SERVER, attributes=attributes
    ) as outer:
        outer.add_event("checkpoint", {"n": 3, "what": "x"})
        with tracer.start_as_current_span(
            "inner", links=[Link(outer.get_span_context(), {"why": "follows"})]
        ) as inner:
            inner.set_status(Status(StatusCode.ERROR, "boom"))
    provider.shutdown()
    return out.getvalue().encode("utf-8"), memory.get_finished_spans()


class TestPythonConsole:
    def test_detected(self, python_console: tuple[bytes, tuple[ReadableSpan, ...]]) -> None:
        """The console output is recognised from its first object."""
        data, _ = python_console
        fmt = detect_format(data[:8192], "stdout.log")
        assert fmt is not None and fmt.name == "otel_python_console"

    def test_same_rows_as_the_otlp_exporter(
        self, python_console: tuple[bytes, tuple[ReadableSpan, ...]]
    ) -> None:
        """Ids, kinds, attributes (same AsString encoding), events, links and status equal
        what the OTLP protobuf path stores for the very same spans."""
        data, spans = python_console
        ours = {r.span_id: r for r in rows(read("otel_python_console", data))}
        oracle = {
            r.span_id: r for r in iter_proto_request(encode_spans(spans)) if isinstance(r, SpanRow)
        }
        assert set(ours) == set(oracle) and len(ours) == 2
        for span_id, expected in oracle.items():
            got = ours[span_id]
            assert got.trace_id == expected.trace_id
            assert got.parent_span_id == expected.parent_span_id
            assert got.name == expected.name and got.kind == expected.kind
            assert dict(got.attributes) == dict(expected.attributes)
            assert dict(got.resource_attributes) == dict(expected.resource_attributes)
            assert got.service_name == expected.service_name == "py-agent"
            assert got.status_code == expected.status_code
            assert got.status_message == expected.status_message
            assert [(e.name, dict(e.attributes)) for e in got.events] == [
                (e.name, dict(e.attributes)) for e in expected.events
            ]
            assert [(link.trace_id, link.span_id, dict(link.attributes)) for link in got.links] == [
                (link.trace_id, link.span_id, dict(link.attributes)) for link in expected.links
            ]
            # The console prints microseconds through a float: within 1 us of the truth.
            assert abs(got.start_time_unix_nano - expected.start_time_unix_nano) <= 1000
            assert abs(got.end_time_unix_nano - expected.end_time_unix_nano) <= 1000
            assert got.scope_name == ""  # the console exporter prints no scope

    def test_nan_literal_is_accepted(
        self, python_console: tuple[bytes, tuple[ReadableSpan, ...]]
    ) -> None:
        """Python writes a bare NaN; it is stored as the exporter's NaN text."""
        data, _ = python_console
        assert b"NaN" in data
        outer = next(r for r in rows(read("otel_python_console", data)) if r.name == "outer")
        assert outer.attributes["nan"] == "json: unsupported value: NaN"

    def test_program_output_between_spans(
        self, python_console: tuple[bytes, tuple[ReadableSpan, ...]]
    ) -> None:
        """Lines the program printed between spans are one rejection; spans still land."""
        data, _ = python_console
        mixed = b"starting up\nconfig {loaded}\n" + data + b"done.\n"
        items = read("otel_python_console", mixed)
        rejections = [i for i in items if isinstance(i, Rejection)]
        assert len(rows(items)) == 2
        assert [r.reason for r in rejections] == [Reason.INVALID_JSON, Reason.INVALID_JSON]
        assert rejections[0].position.line == 1

    def test_truncated_last_object(
        self, python_console: tuple[bytes, tuple[ReadableSpan, ...]]
    ) -> None:
        """An object cut off at the end (a writer still writing) is truncated_json."""
        data, _ = python_console
        items = read("otel_python_console", data[:-40])
        assert len(rows(items)) == 1
        (last,) = [i for i in items if isinstance(i, Rejection)]
        assert last.reason == Reason.TRUNCATED_JSON

    def test_bad_fields(self) -> None:
        """Missing ids, bad kinds, bad times and wrong types are quarantined with reasons."""
        base = {
            "name": "s",
            "context": {"trace_id": "0x" + "ab" * 16, "span_id": "0x" + "cd" * 8},
            "kind": "SpanKind.INTERNAL",
            "start_time": "2026-01-01T00:00:00.000001Z",
            "end_time": "2026-01-01T00:00:01.000001Z",
            "attributes": {},
        }
        variants = [
            ({**base, "context": None}, Reason.INVALID_ID),
            ({**base, "kind": "SpanKind.SIDEWAYS"}, Reason.INVALID_VALUE),
            ({**base, "start_time": "soon"}, Reason.INVALID_VALUE),
            ({**base, "end_time": None}, Reason.MISSING_TIMESTAMP),
            ({**base, "attributes": [1]}, Reason.WRONG_TYPE),
            (
                {**base, "context": {"trace_id": "0x12", "span_id": "0x" + "cd" * 8}},
                Reason.INVALID_ID,
            ),
            ({**base, "end_time": "2025-01-01T00:00:00Z"}, Reason.NEGATIVE_DURATION),
            ({**base, "status": {"status_code": ["x"]}}, Reason.INVALID_VALUE),
        ]
        data = b"".join(json.dumps(v, indent=4).encode() + b"\n" for v, _ in variants)
        items = read("otel_python_console", data)
        got = [i.reason for i in items if isinstance(i, Rejection)]
        # Negative durations pass the decoder; the store quarantines them (check_row).
        expected = [r for _, r in variants if r != Reason.NEGATIVE_DURATION]
        assert got == expected
        assert len(rows(items)) == 1


class TestGoStdouttrace:
    @pytest.mark.parametrize("name", ["go_stdouttrace_pretty.json", "go_stdouttrace_compact.jsonl"])
    def test_both_framings(self, name: str) -> None:
        """Tab-indented and one-object-per-line output decode to the same rows."""
        data = (FIXTURES / name).read_bytes()
        fmt = detect_format(data[:8192], name)
        assert fmt is not None and fmt.name == "otel_go_stdouttrace"
        items = read("otel_go_stdouttrace", data)
        assert all(isinstance(i, SpanRow) for i in items) and len(items) == 2

    def test_mapping(self) -> None:
        """Go's SpanStub fields map to the stored columns, values as the OTLP decoder writes them."""
        items = rows(
            read("otel_go_stdouttrace", (FIXTURES / "go_stdouttrace_pretty.json").read_bytes())
        )
        tool, call = items
        assert tool.trace_id == "0af7651916cd43dd8448eb211c80319c"
        assert tool.span_id == "b7ad6b7169203331" and tool.parent_span_id == "00f067aa0ba902b7"
        assert call.parent_span_id == ""  # an all-zero Parent is a root
        assert tool.kind == "Client" and call.kind == "Internal"
        # 11:00:00.5+01:00 is 10:00:00.5Z; nanoseconds are kept.
        assert tool.start_time_unix_nano == 1772359200_500_000_000
        assert tool.end_time_unix_nano == 1772359200_750_000_001
        a = tool.attributes
        assert a["http.method"] == "GET" and a["retry"] == "true"
        assert a["attempt"] == "9007199254740993"  # int64 beyond 2^53 survives
        assert a["ratio"] == "0.25" and a["whole"] == "3"
        assert a["tags"] == '["a","\\u003cb\\u003e\\u0026"]'
        assert a["codes"] == "[200,404]" and a["flags"] == "[true,false]"
        assert a["weights"] == "[0.5,1e+21]" and a["none"] == "[]"
        assert tool.status_code == "Error" and tool.status_message == "upstream timeout"
        assert call.status_code == "Unset"
        (event,) = tool.events
        assert event.name == "cache.miss" and event.attributes == {"key": "k1"}
        assert event.time_unix_nano == 1772359200_600_000_000
        (link,) = tool.links
        assert link.trace_id == "5b8efff798038103d269b633813fc60c"
        assert link.trace_state == "congo=t61rcWkgMzE"
        assert tool.scope_name == "example.com/agent" and tool.scope_version == "v0.3.1"
        assert tool.service_name == "go-agent"
        assert tool.resource_attributes["service.instance.id"] == "go-run-1"

    def test_without_timestamps(self) -> None:
        """WithoutTimestamps() writes Go's zero time: quarantined as missing_timestamp."""
        items = read(
            "otel_go_stdouttrace",
            (FIXTURES / "go_stdouttrace_without_timestamps.jsonl").read_bytes(),
        )
        (rejection,) = items
        assert isinstance(rejection, Rejection) and rejection.reason == Reason.MISSING_TIMESTAMP
        assert "WithoutTimestamps" in rejection.detail

    def test_go_status_numbers(self) -> None:
        """A bare numeric Code uses Go's numbering (1 = Error, 2 = Ok)."""
        stub = json.loads((FIXTURES / "go_stdouttrace_compact.jsonl").read_text().splitlines()[1])
        for code, expected in ((1, "Error"), (2, "Ok"), (0, "Unset")):
            stub["Status"] = {"Code": code, "Description": ""}
            (row,) = rows(read("otel_go_stdouttrace", json.dumps(stub).encode()))
            assert row.status_code == expected

    def test_bad_values(self) -> None:
        """A value that contradicts its Type, or an unknown Type, quarantines the span."""
        stub = json.loads((FIXTURES / "go_stdouttrace_compact.jsonl").read_text().splitlines()[1])
        bad_type = {**stub, "Attributes": [{"Key": "k", "Value": {"Type": "INT64", "Value": "7"}}]}
        unknown = {**stub, "Attributes": [{"Key": "k", "Value": {"Type": "COMPLEX", "Value": 1}}]}
        kind = {**stub, "SpanKind": "client"}
        data = b"\n".join(json.dumps(s).encode() for s in (bad_type, unknown, kind))
        reasons = [i.reason for i in read("otel_go_stdouttrace", data) if isinstance(i, Rejection)]
        assert reasons == [Reason.WRONG_TYPE, Reason.INVALID_VALUE, Reason.WRONG_TYPE]

    def test_oversized_object(self) -> None:
        """An object over max_record_bytes is skipped whole (even across read chunks, without
        holding it); the objects around it land."""
        lines = (FIXTURES / "go_stdouttrace_compact.jsonl").read_text().splitlines()
        small = json.loads(lines[1])
        huge = {**small, "Name": "x" * 300_000}
        data = "\n".join(json.dumps(s, indent="\t") for s in (small, huge, small)).encode()
        items = read("otel_go_stdouttrace", data, DecodeLimits(max_record_bytes=100_000))
        assert [type(i).__name__ for i in items] == ["SpanRow", "Rejection", "SpanRow"]
        rejection = items[1]
        assert isinstance(rejection, Rejection) and rejection.reason == Reason.RECORD_TOO_LARGE
        assert rejection.position.line is not None and rejection.position.line > 1
        assert rejection.excerpt and len(rejection.excerpt) <= DEFAULT_LIMITS.excerpt_bytes


class TestIngestConsole:
    def test_grown_output_resumes(self, tmp_path: Path) -> None:
        """A console file that grew is read from after its last complete object."""
        compact = (FIXTURES / "go_stdouttrace_compact.jsonl").read_text().splitlines()
        first, second = (json.loads(line) for line in compact)
        path = tmp_path / "stdout.log"
        path.write_text(json.dumps(first, indent="\t") + "\n")
        with Store.open(tmp_path / "s.duckdb") as store:
            one = ingest([path], store, progress=False)
            assert one.spans_accepted == 1 and one.sources[0].format == "otel_go_stdouttrace"
            with path.open("a") as handle:
                handle.write(json.dumps(second, indent="\t") + "\n")
            two = ingest([path], store, progress=False)
            assert two.sources[0].resumed_from is not None
            assert two.spans_accepted == 1 and two.duplicates_skipped == 0
            assert store.scalar("SELECT count(*) FROM otel_traces") == 2

    def test_unfinished_object_is_read_again(self, tmp_path: Path) -> None:
        """An object cut off at the end is quarantined, the resume point stays before it,
        and once the writer finishes it the next run stores it."""
        compact = (FIXTURES / "go_stdouttrace_compact.jsonl").read_text().splitlines()
        first, second = (json.dumps(json.loads(line), indent="\t") for line in compact)
        path = tmp_path / "stdout.log"
        path.write_text(first + "\n" + second[:100])
        with Store.open(tmp_path / "s.duckdb") as store:
            one = ingest([path], store, progress=False)
            assert one.spans_accepted == 1 and one.rows_quarantined == 1
            path.write_text(first + "\n" + second + "\n")
            two = ingest([path], store, progress=False)
            assert two.sources[0].resumed_from == len(first)
            assert two.spans_accepted == 1
