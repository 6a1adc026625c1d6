"""Receiver benchmark: spans/s from the official OTLP/HTTP exporter, against its own encoding cost.

    python bench/receiver_bench.py                   # 60,000 spans, 1 and 4 clients
    python bench/receiver_bench.py --spans 20000     # quicker
    python bench/receiver_bench.py --markdown        # a table for docs/receiver.md

Spans are recorded once with the OTel SDK (four attributes each, one an array,
like recurscope's call spans) and cut into batches of 512, the
``BatchSpanProcessor`` default. Then, in the same run:

- **encode only**: the exporter's own work per batch without any network,
  ``encode_spans(batch).SerializePartialToString()`` (what
  ``OTLPSpanExporter.export`` does before it sends), best of three;
- **acknowledged**: ``OTLPSpanExporter(...).export(batch)`` for every batch
  against ``recurscope serve`` in a child process on loopback (protobuf, no
  compression), timed from the first export to the last 200. A 200 means the
  request is fsynced in the spool;
- **stored**: from the first export until the server, sent SIGTERM after the
  last acknowledgement, has written every span into DuckDB and exited.

Zero loss is checked: the store must hold exactly the spans sent, once each.
The ratio is receiver time over encode-only time for the same spans: how
many times the exporter's own cost of building the requests it takes to get
them acknowledged (or stored). With several clients, each has its own
exporter and thread, as separate processes would.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from recurscope.pipeline import Store
from recurscope.pipeline.testing import ReceiverProcess

BATCH = 512


def record_spans(count: int) -> list[ReadableSpan]:
    """``count`` finished SDK spans shaped like recurscope call spans."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "bench"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("recurscope.bench", "0.1")
    for index in range(count):
        with tracer.start_as_current_span("recurscope.call") as span:
            span.set_attribute("gen_ai.conversation.id", f"session-{index // 50}")
            span.set_attribute("recurscope.call.depth", index % 4)
            span.set_attribute("recurscope.history.accessed", index % 2 == 0)
            span.set_attribute("recurscope.history.ops", ["filter", "map"])
    provider.shutdown()
    return list(exporter.get_finished_spans())


def batches(spans: Sequence[ReadableSpan], size: int = BATCH) -> list[Sequence[ReadableSpan]]:
    return [spans[i : i + size] for i in range(0, len(spans), size)]


def encode_seconds(parts: list[Sequence[ReadableSpan]], repeat: int = 3) -> float:
    """Best-of-``repeat`` time for the exporter to build every request body."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for part in parts:
            encode_spans(part).SerializePartialToString()
        best = min(best, time.perf_counter() - started)
    return best


@dataclass(frozen=True)
class Run:
    clients: int
    spans: int
    acknowledged_seconds: float
    stored_seconds: float
    stored: int
    distinct: int
    throttled: str


def _exporter(protocol: str, server: ReceiverProcess) -> SpanExporter:
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (
            OTLPSpanExporter as GrpcExporter,
        )

        return GrpcExporter(endpoint=server.grpc_endpoint, insecure=True)
    return OTLPSpanExporter(endpoint=server.endpoint)


def receive(parts: list[Sequence[ReadableSpan]], clients: int, protocol: str = "http") -> Run:
    """Export every batch to a fresh receiver with ``clients`` threads; wait until stored."""
    with tempfile.TemporaryDirectory(prefix="recurscope-bench-") as folder:
        db = Path(folder) / "bench.duckdb"
        with ReceiverProcess(db) as server:
            failures: list[SpanExportResult] = []

            def client(mine: list[Sequence[ReadableSpan]]) -> None:
                exporter = _exporter(protocol, server)
                for part in mine:
                    result = exporter.export(part)
                    if result != SpanExportResult.SUCCESS:
                        failures.append(result)
                exporter.shutdown()

            threads = [
                threading.Thread(target=client, args=(parts[i::clients],)) for i in range(clients)
            ]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            acknowledged = time.perf_counter() - started
            code = server.stop()
            stored_after = time.perf_counter() - started
            if code != 0 or failures:
                raise SystemExit(f"receiver exit {code}, {len(failures)} failed exports")
            summary = server.output[-1]
        with Store.open(db, read_only=True) as store:
            row = store.query("SELECT count(*), count(DISTINCT (TraceId, SpanId)) FROM otel_traces")
    throttled = (
        summary.rsplit(", ", 1)[-1].split(" throttled")[0] if "throttled" in summary else "?"
    )
    total = sum(len(p) for p in parts)
    return Run(
        clients,
        total,
        acknowledged,
        stored_after,
        int(str(row[0][0])),
        int(str(row[0][1])),
        throttled,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=60_000, help="spans to send per run")
    parser.add_argument(
        "--clients", type=int, nargs="+", default=[1, 4], help="concurrent exporters per run"
    )
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "--protocol", choices=("http", "grpc", "both"), default="http", help="OTLP transport"
    )
    options = parser.parse_args()
    protocols = ("http", "grpc") if options.protocol == "both" else (options.protocol,)

    spans = record_spans(options.spans)
    parts = batches(spans)
    encode = encode_seconds(parts)
    rows = []
    for protocol in protocols:
        for clients in options.clients:
            run = receive(parts, clients, protocol)
            if run.stored != run.spans or run.distinct != run.spans:
                print(f"LOSS: sent {run.spans}, stored {run.stored} ({run.distinct} distinct)")
                return 1
            rows.append((protocol, run))

    encode_rate = len(spans) / encode
    if options.markdown:
        print(
            "| protocol | clients | encode only | acknowledged | ratio | stored in DuckDB "
            "| ratio | loss |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    else:
        print(f"encode only (exporter, no network): {encode_rate:,.0f} spans/s")
    for protocol, run in rows:
        ack_rate = run.spans / run.acknowledged_seconds
        stored_rate = run.spans / run.stored_seconds
        if options.markdown:
            print(
                f"| {protocol} | {run.clients} | {encode_rate:,.0f} spans/s | {ack_rate:,.0f} spans/s | "
                f"{run.acknowledged_seconds / encode:.1f}x | {stored_rate:,.0f} spans/s | "
                f"{run.stored_seconds / encode:.1f}x | 0 of {run.spans:,} |"
            )
        else:
            print(
                f"{protocol}, {run.clients} client(s): acknowledged {ack_rate:,.0f} spans/s "
                f"({run.acknowledged_seconds / encode:.1f}x encode time), stored "
                f"{stored_rate:,.0f} spans/s ({run.stored_seconds / encode:.1f}x), "
                f"{run.stored:,}/{run.spans:,} stored once, {run.throttled} throttled"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
