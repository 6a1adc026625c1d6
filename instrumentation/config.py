"""Choosing where spans go: the application's (or the CLI's) job, never the library's.

``configure(...)`` builds an SDK ``TracerProvider`` with one exporter — a local
OTLP-JSON-lines file (the default, which ``recurscope ingest`` reads), an
OTLP/HTTP or OTLP/gRPC collector, or the console — and returns a handle with
``flush()`` / ``shutdown()``. It needs the ``[sdk]`` extra (``[grpc]`` for
gRPC). The standard ``OTEL_*`` environment variables are honoured:
``OTEL_SDK_DISABLED`` turns recording off, ``OTEL_SERVICE_NAME`` and
``OTEL_RESOURCE_ATTRIBUTES`` shape the resource, ``OTEL_EXPORTER_OTLP_*``
configure the OTLP exporters.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from . import _faults, _unrouted
from .errors import MissingExtraError

Exporter = Literal["file", "otlp", "otlp-grpc", "console", "none"]
EXPORTERS: tuple[str, ...] = ("file", "otlp", "otlp-grpc", "console", "none")
DEFAULT_SPANS_FILE = "data/spans.jsonl"


def _require_sdk(extra: str = "sdk") -> None:
    try:
        import opentelemetry.sdk.trace  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError(
            "configure() needs the OpenTelemetry SDK",
            extra=extra,
        ) from exc


class _GuardedExporter:
    """Wraps an exporter so a failing backend is logged once and counted, never raised."""

    def __init__(self, inner: Any) -> None:
        from opentelemetry.sdk.trace.export import SpanExportResult

        self._inner = inner
        self._failure = SpanExportResult.FAILURE
        self.failures = 0
        self._lock = threading.Lock()

    def export(self, spans: Sequence[Any]) -> Any:
        try:
            result = self._inner.export(spans)
        except Exception as exc:
            _faults.report("exporter.export", exc)
            result = self._failure
        if result == self._failure:
            with self._lock:
                self.failures += 1
        return result

    def shutdown(self) -> None:
        try:
            self._inner.shutdown()
        except Exception as exc:
            _faults.report("exporter.shutdown", exc)

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        try:
            return bool(self._inner.force_flush(timeout_millis))
        except Exception as exc:
            _faults.report("exporter.flush", exc)
            return False


@dataclass
class Telemetry:
    """What :func:`configure` set up: the provider to pass around, and its lifecycle.

    ``tracer_provider`` is an SDK provider (or a no-op one when disabled);
    ``run_id`` is the resource's ``service.instance.id``; ``path`` the spans
    file for the file exporter.
    """

    tracer_provider: Any
    exporter: str
    run_id: str
    path: Path | None = None
    enabled: bool = True
    _guard: _GuardedExporter | None = field(default=None, repr=False)

    @property
    def export_failures(self) -> int:
        """Export batches that failed (the backend was down, the disk full, ...)."""
        return self._guard.failures if self._guard is not None else 0

    def flush(self, timeout_millis: int = 30_000) -> bool:
        """Export everything recorded so far; True when it all went out."""
        flush = getattr(self.tracer_provider, "force_flush", None)
        try:
            return bool(flush(timeout_millis)) if flush is not None else True
        except Exception as exc:
            _faults.report("telemetry.flush", exc)
            return False

    def shutdown(self) -> None:
        """Flush and stop exporting. Safe to call twice."""
        _unrouted.unregister(self)
        shutdown = getattr(self.tracer_provider, "shutdown", None)
        if shutdown is not None:
            try:
                shutdown()
            except Exception as exc:
                _faults.report("telemetry.shutdown", exc)

    def __enter__(self) -> Telemetry:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()


def _default_exporter() -> str:
    chosen = os.environ.get("RECURSCOPE_EXPORTER", "").strip().lower()
    if chosen:
        return chosen
    if os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or os.environ.get(
        "OTEL_EXPORTER_OTLP_ENDPOINT"
    ):
        protocol = os.environ.get(
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL", "")
        )
        return "otlp-grpc" if protocol.strip() == "grpc" else "otlp"
    return "file"


def _sdk_disabled() -> bool:
    return os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true"


def configure(
    exporter: Exporter | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    endpoint: str | None = None,
    headers: Mapping[str, str] | None = None,
    service_name: str | None = None,
    run_id: str | None = None,
    resource_attributes: Mapping[str, Any] | None = None,
    batch: bool = True,
    set_global: bool = False,
) -> Telemetry:
    """Build a tracer provider that sends recurscope spans somewhere.

    ``exporter``: ``file`` (OTLP JSON lines appended to ``path``, default
    ``$RECURSCOPE_SPANS_FILE`` or ``data/spans.jsonl`` under the current
    directory; the parent directory is created), ``otlp`` (OTLP/HTTP
    protobuf to ``endpoint`` or the ``OTEL_EXPORTER_OTLP_*`` settings),
    ``otlp-grpc`` (needs ``[grpc]``), ``console``, or ``none``. Unset, it is
    ``$RECURSCOPE_EXPORTER``, else ``otlp`` when an OTLP endpoint is in the
    environment, else ``file``. ``run_id`` becomes ``service.instance.id``
    (a fresh UUID when omitted and not in ``OTEL_RESOURCE_ATTRIBUTES``).
    ``set_global`` also installs the provider as OTel's global one (once per
    process); otherwise pass ``telemetry.tracer_provider`` to recorders (a
    recorder without one records nowhere, and the package logger says so once).

    Example::

        telemetry = configure("file", path="data/spans.jsonl")
        recorder = Recorder("session-1", tracer_provider=telemetry.tracer_provider)
        ...
        telemetry.shutdown()
    """
    _require_sdk()
    from opentelemetry import trace
    from opentelemetry.sdk.resources import OTELResourceDetector, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    kind = (exporter or _default_exporter()).lower()
    if kind not in EXPORTERS:
        raise ValueError(f"exporter must be one of {', '.join(EXPORTERS)}; got {exporter!r}")

    attributes: dict[str, Any] = {}
    detected = OTELResourceDetector().detect().attributes
    attributes["service.name"] = service_name or os.environ.get(
        "OTEL_SERVICE_NAME", detected.get("service.name", "recurscope-host")
    )
    run = run_id or str(detected.get("service.instance.id") or uuid.uuid4())
    attributes["service.instance.id"] = run
    attributes.update(resource_attributes or {})
    resource = Resource.create(attributes)

    if _sdk_disabled() or kind == "none":
        # A no-op provider: recorders see it and return before touching a tracer.
        return Telemetry(trace.NoOpTracerProvider(), exporter=kind, run_id=run, enabled=False)

    spans_path: Path | None = None
    inner: Any
    if kind == "file":
        from opentelemetry.exporter.otlp.json.file import FileSpanExporter

        spans_path = Path(path or os.environ.get("RECURSCOPE_SPANS_FILE") or DEFAULT_SPANS_FILE)
        spans_path.parent.mkdir(parents=True, exist_ok=True)
        inner = FileSpanExporter(spans_path)
    elif kind == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        inner = OTLPSpanExporter(endpoint=endpoint, headers=dict(headers) if headers else None)
    elif kind == "otlp-grpc":
        try:
            from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (
                OTLPSpanExporter as GrpcSpanExporter,
            )
        except ImportError as exc:
            raise MissingExtraError("the OTLP/gRPC exporter", extra="grpc") from exc
        inner = GrpcSpanExporter(
            endpoint=endpoint, headers=tuple(headers.items()) if headers else None
        )
    else:
        import sys

        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        # Bind the stdout of now, not of import time (the SDK's default argument).
        inner = ConsoleSpanExporter(out=sys.stdout)

    guard = _GuardedExporter(inner)
    provider = TracerProvider(resource=resource)
    processor = BatchSpanProcessor(guard) if batch else SimpleSpanProcessor(guard)  # type: ignore[arg-type]
    provider.add_span_processor(processor)
    if set_global:
        trace.set_tracer_provider(provider)
    telemetry = Telemetry(provider, exporter=kind, run_id=run, path=spans_path, _guard=guard)
    # Noticed, never used: a recorder left without a provider is warned about (once).
    _unrouted.register(telemetry)
    return telemetry
