"""Helpers for testing code that produces or ingests OTLP files.

- :func:`otlp_json_from_proto` encodes a protobuf request as OTLP JSON the
  way the Collector and the OTel file exporters do (hex ids), which
  ``google.protobuf.json_format`` alone gets wrong;
- :func:`sdk_request` records real spans with the OTel SDK and returns the
  protobuf request its OTLP exporters would send;
- :func:`write_jsonl` writes a large synthetic OTLP JSON-lines file quickly,
  for benchmarks and memory tests;
- :func:`add_synthetic_spans` puts synthetic sessions (and compact span
  specs) straight into a store's ``otel_traces``, for tests of what reads it.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

__all__ = [
    "add_synthetic_spans",
    "otlp_json_from_proto",
    "sdk_request",
    "synthetic_lines",
    "write_jsonl",
]

_ID_KEYS = frozenset({"traceId", "spanId", "parentSpanId"})


def otlp_json_from_proto(request: ExportTraceServiceRequest) -> dict[str, Any]:
    """OTLP JSON for ``request``: camelCase keys, int64 as strings, enums as numbers,
    and trace/span ids as lower-case hex (proto3 JSON would write base64)."""
    from google.protobuf import json_format

    data = json_format.MessageToDict(request, use_integers_for_enums=True)

    def fix(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {
                key: base64.b64decode(value).hex()
                if key in _ID_KEYS and isinstance(value, str)
                else fix(value)
                for key, value in obj.items()
            }
        if isinstance(obj, list):
            return [fix(item) for item in obj]
        return obj

    result: dict[str, Any] = fix(data)
    return result


def sdk_request(
    spans: int = 3, *, service_name: str = "recurscope-test"
) -> ExportTraceServiceRequest:
    """Record ``spans`` nested spans with the OTel SDK; return them as an OTLP request.

    Uses an ``InMemorySpanExporter`` and the OTLP exporters' own encoder
    (``encode_spans``), so the bytes are exactly what an SDK would send.
    """
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import SpanKind, Status, StatusCode

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("recurscope.testing", "0.1.0")
    with tracer.start_as_current_span("root", kind=SpanKind.SERVER) as root:
        root.set_attribute("gen_ai.conversation.id", "conv-1")
        for index in range(max(spans - 1, 0)):
            with tracer.start_as_current_span(f"child-{index}") as child:
                child.set_attribute("recurscope.history.ops", ["filter", "map"])
                child.set_attribute("recurscope.history.size", index)
                child.set_attribute("ratio", 0.25)
                child.set_attribute("recurscope.history.accessed", index % 2 == 0)
                child.add_event("looked", {"records": index})
                if index == 0:
                    child.set_status(Status(StatusCode.ERROR, "boom"))
    provider.shutdown()
    request: ExportTraceServiceRequest = encode_spans(exporter.get_finished_spans())
    return request


_SYNTHETIC_SPAN = (
    '{{"traceId":"{trace}","spanId":"{span}","parentSpanId":"{parent}",'
    '"name":"recurscope.call","kind":1,"startTimeUnixNano":"{start}",'
    '"endTimeUnixNano":"{end}","attributes":['
    '{{"key":"gen_ai.conversation.id","value":{{"stringValue":"c1"}}}},'
    '{{"key":"recurscope.call.depth","value":{{"intValue":"{depth}"}}}},'
    '{{"key":"recurscope.history.accessed","value":{{"boolValue":true}}}},'
    '{{"key":"recurscope.history.ops","value":{{"arrayValue":{{"values":['
    '{{"stringValue":"filter"}},{{"stringValue":"map"}}]}}}}}}],"status":{{}}}}'
)
_SYNTHETIC_HEAD = (
    '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name",'
    '"value":{"stringValue":"synthetic"}}]},"scopeSpans":[{"scope":{"name":"recurscope",'
    '"version":"0.1"},"spans":['
)


def synthetic_lines(
    spans: int, *, spans_per_line: int = 100, seed: int = 0, start_ns: int = 1_700_000_000 * 10**9
) -> Iterator[bytes]:
    """OTLP JSON lines (bytes, newline-terminated) holding ``spans`` distinct spans.

    Each line is one request: one trace of ``spans_per_line`` spans, each with
    four attributes shaped like recurscope's call spans. Ids come from a
    seeded generator, so the same arguments give the same bytes.
    """
    rng = random.Random(seed)
    remaining = spans
    clock = start_ns
    while remaining > 0:
        count = min(spans_per_line, remaining)
        remaining -= count
        trace_id = f"{rng.getrandbits(128):032x}"
        root = ""
        parts = []
        for index in range(count):
            clock += 1000
            span_id = f"{rng.getrandbits(64) | 1:016x}"
            parts.append(
                _SYNTHETIC_SPAN.format(
                    trace=trace_id,
                    span=span_id,
                    parent=root,
                    start=clock,
                    end=clock + 500,
                    depth=index % 4,
                )
            )
            if index == 0:
                root = span_id
        yield (_SYNTHETIC_HEAD + ",".join(parts) + "]}]}]}\n").encode()


def write_jsonl(path: str | Path, spans: int, *, spans_per_line: int = 100, seed: int = 0) -> Path:
    """Write :func:`synthetic_lines` to ``path``; returns the path."""
    target = Path(path)
    with target.open("wb") as handle:
        for line in synthetic_lines(spans, spans_per_line=spans_per_line, seed=seed):
            handle.write(line)
    return target


def decoder_worker_pids() -> set[int]:
    """Live ingest decoder processes on this machine (Linux: read from ``/proc``)."""
    pids: set[int] = set()
    proc = Path("/proc")
    if not proc.is_dir():
        return pids
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1][:1]
        except (OSError, IndexError):
            continue
        if b"parallel import worker_main" in command and state != "Z":
            pids.add(int(entry.name))
    return pids


def add_synthetic_spans(
    con: Any,
    *,
    sessions: int,
    seed: int = 0,
    specs: Sequence[Mapping[str, Any]] = (),
) -> int:
    """Insert ``sessions`` synthetic sessions and ``specs`` into a store's ``otel_traces``.

    ``con`` is a writable connection to a store made by ``Store.open`` (whose
    table has bookkeeping columns the contract DDL lacks). The spans come
    from ``sql/fixtures/_synthetic_spans.sql`` (origin ``simulated``) and
    :func:`recurscope.pipeline.evidence.models.expand_span` for ``specs``; they are
    generated in a scratch in-memory database and copied in one statement.
    Returns the spans added. Nothing is refreshed: call
    ``evidence.refresh`` (or let a writer session do it) afterwards.
    """
    import duckdb

    from .evidence.models import (
        create_otel_traces_table,
        insert_span_specs,
        insert_synthetic_spans,
    )

    scratch = duckdb.connect()
    try:
        create_otel_traces_table(scratch)
        insert_synthetic_spans(scratch, sessions=sessions, seed=seed)
        if specs:
            insert_span_specs(scratch, specs)
        rows = scratch.sql("SELECT * FROM otel_traces").to_arrow_table()
    finally:
        scratch.close()
    con.register("_synthetic_rows", rows)
    try:
        columns = ", ".join(f'"{c}"' for c in rows.column_names)
        con.execute(
            f"INSERT INTO otel_traces ({columns}, ScopeAttributes, IngestId) "
            f"SELECT {columns}, MAP {{}}, 0 FROM _synthetic_rows"
        )
    finally:
        con.unregister("_synthetic_rows")
    return int(rows.num_rows)
