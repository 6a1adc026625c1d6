"""configure(): where spans go — a local OTLP JSON file, an OTLP/HTTP collector, the console."""

from __future__ import annotations

import gzip
import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from recurscope.instrumentation import MissingExtraError, Recorder, configure
from recurscope.instrumentation import semconv as sc


def test_file_exporter_writes_otlp_json_lines(tmp_path: Path) -> None:
    """The default file exporter appends one ExportTraceServiceRequest per line with hex ids."""
    out = tmp_path / "spans.jsonl"
    telemetry = configure("file", path=out, run_id="run-42", service_name="host")
    recorder = Recorder("s1", tracer_provider=telemetry.tracer_provider)
    with recorder.call("m", role="r"):
        pass
    telemetry.shutdown()
    lines = out.read_text().splitlines()
    assert lines
    request = json.loads(lines[0])
    resource = request["resourceSpans"][0]["resource"]["attributes"]
    resource_map = {a["key"]: a["value"]["stringValue"] for a in resource}
    assert resource_map["service.instance.id"] == "run-42"
    assert resource_map["service.name"] == "host"
    span = request["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert span["name"] == sc.SPAN_CALL and len(span["traceId"]) == 32
    scope = request["resourceSpans"][0]["scopeSpans"][0]["scope"]
    assert scope == scope | {"name": sc.INSTRUMENTATION_SCOPE, "version": sc.SEMCONV_VERSION}


def test_run_id_defaults_to_a_fresh_uuid_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """service.instance.id comes from OTEL_RESOURCE_ATTRIBUTES when set, else a UUID."""
    fresh = configure("none")
    assert len(fresh.run_id) == 36
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "service.instance.id=from-env")
    assert configure("none").run_id == "from-env"


def test_sdk_disabled_gives_a_noop_handle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """OTEL_SDK_DISABLED=true: nothing is exported and no file is created."""
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    out = tmp_path / "spans.jsonl"
    telemetry = configure("file", path=out)
    assert not telemetry.enabled
    with Recorder("s1", tracer_provider=telemetry.tracer_provider).call("m", role="r") as call:
        assert not call.recording
    telemetry.shutdown()
    assert not out.exists()


def test_exporter_choice_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """An OTLP endpoint in the environment selects the OTLP exporter by default."""
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    telemetry = configure(batch=False)
    assert telemetry.exporter == "otlp"
    telemetry.shutdown()


def test_unknown_exporter_is_refused_with_the_choices() -> None:
    """A typo in the exporter name lists the valid ones."""
    with pytest.raises(ValueError, match="file, otlp, otlp-grpc, console, none"):
        configure("zipkin")  # type: ignore[arg-type]


def test_missing_grpc_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the gRPC exporter installed the error names the [grpc] extra."""
    monkeypatch.setitem(sys.modules, "opentelemetry.exporter.otlp.proto.grpc.trace_exporter", None)
    with pytest.raises(MissingExtraError, match=r"recurscope\[grpc\]"):
        configure("otlp-grpc")


class _Collector(BaseHTTPRequestHandler):
    received: ClassVar[list[ExportTraceServiceRequest]] = []
    fail = False

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        if self.fail:
            self.send_response(500)
            self.end_headers()
            return
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        self.received.append(request)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[tuple[str, type[_Collector]]]:
    handler = type("Handler", (_Collector,), {"received": [], "fail": False})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1/traces", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.integration
def test_otlp_http_exporter_reaches_a_collector(collector: tuple[str, type[_Collector]]) -> None:
    """Spans go over real OTLP/HTTP protobuf to a listening collector."""
    endpoint, handler = collector
    telemetry = configure("otlp", endpoint=endpoint, run_id="r1", batch=False)
    with Recorder("s1", tracer_provider=telemetry.tracer_provider).call("m", role="r"):
        pass
    telemetry.shutdown()
    spans = [
        span
        for request in handler.received
        for rs in request.resource_spans
        for ss in rs.scope_spans
        for span in ss.spans
    ]
    assert [s.name for s in spans] == [sc.SPAN_CALL]
    assert telemetry.export_failures == 0


@pytest.mark.integration
def test_failing_collector_is_counted_not_raised(collector: tuple[str, type[_Collector]]) -> None:
    """A collector answering 500 costs the host nothing but a counted export failure."""
    endpoint, handler = collector
    handler.fail = True
    telemetry = configure("otlp", endpoint=endpoint, batch=False)
    recorder = Recorder("s1", tracer_provider=telemetry.tracer_provider)
    with recorder.call("m", role="r"):
        pass
    telemetry.shutdown()
    assert telemetry.export_failures >= 1


def test_console_exporter_prints_spans(capsys: pytest.CaptureFixture[str]) -> None:
    """The console exporter writes the span to stdout."""
    telemetry = configure("console", batch=False)
    with Recorder("s1", tracer_provider=telemetry.tracer_provider).call("m", role="r"):
        pass
    telemetry.shutdown()
    assert sc.SPAN_CALL in capsys.readouterr().out
