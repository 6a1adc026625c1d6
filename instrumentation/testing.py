"""Test helpers for runtimes that use recurscope, shipped with the library.

``with capture_spans() as spans:`` records every recurscope span emitted in the
block into memory — without touching OpenTelemetry's process-global tracer
provider, which can be set only once per process::

    with capture_spans() as spans:
        recorder = Recorder("s1")
        with recorder.call("ask", role="assistant"):
            ...
    assert spans.named("recurscope.call")[0].attributes["gen_ai.agent.name"] == "assistant"

Recorders created with an explicit ``tracer_provider`` keep using it; pass
``spans.tracer_provider`` to code that takes one. ``spans.write_jsonl(path)``
writes what was captured as OTLP JSON lines, the format ``configure("file")``
writes and ``recurscope ingest`` reads. Needs the ``[sdk]`` extra.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import semconv as sc
from .errors import MissingExtraError
from .recorder import _PROVIDER_OVERRIDE

try:
    from opentelemetry.exporter.otlp.json.file import FileSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("recurscope.instrumentation.testing", extra="sdk") from exc

__all__ = ["CapturedSpans", "capture_spans"]

# Spans per line, as BatchSpanProcessor (configure()'s default) exports them.
_BATCH = 512


class CapturedSpans(Sequence[ReadableSpan]):
    """Finished spans, in the order they ended, plus the provider that recorded them."""

    def __init__(self, provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
        self.tracer_provider = provider
        self._exporter = exporter

    def _spans(self) -> tuple[ReadableSpan, ...]:
        return self._exporter.get_finished_spans()

    def __len__(self) -> int:
        return len(self._spans())

    def __getitem__(self, index: Any) -> Any:
        return self._spans()[index]

    def named(self, name: str) -> list[ReadableSpan]:
        """Spans with this name (e.g. ``recurscope.trim``)."""
        return [span for span in self._spans() if span.name == name]

    def calls(self) -> list[ReadableSpan]:
        return self.named(sc.SPAN_CALL)

    def trims(self) -> list[ReadableSpan]:
        return self.named(sc.SPAN_TRIM)

    def boundary_shifts(self) -> list[ReadableSpan]:
        return self.named(sc.SPAN_BOUNDARY_SHIFT)

    def sessions(self) -> list[ReadableSpan]:
        """Session spans (``recorder.session()``), present only once they ended."""
        return self.named(sc.SPAN_SESSION)

    def clear(self) -> None:
        self._exporter.clear()

    def write_jsonl(self, path: str | os.PathLike[str]) -> int:
        """Append the captured spans to ``path`` as OTLP JSON lines; returns how many.

        The encoder is the one ``configure("file")`` uses (one
        ``ExportTraceServiceRequest`` per line, up to 512 spans a line), so
        ``recurscope ingest`` reads the file. Parent directories are created.
        Raises ``OSError`` when the file cannot be written: this is a test helper.
        """
        spans = self._spans()
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        exporter = FileSpanExporter(target)
        try:
            for start in range(0, len(spans), _BATCH):
                if exporter.export(spans[start : start + _BATCH]) != SpanExportResult.SUCCESS:
                    raise OSError(f"could not write spans to {target} (the log says why)")
        finally:
            exporter.shutdown()
        return len(spans)


@contextmanager
def capture_spans(*, run_id: str = "test-run") -> Iterator[CapturedSpans]:
    """Capture recurscope spans emitted in the block (see the module docstring)."""
    provider = TracerProvider(
        resource=Resource.create({"service.name": "recurscope-test", "service.instance.id": run_id})
    )
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    token = _PROVIDER_OVERRIDE.set(provider)
    try:
        yield CapturedSpans(provider, exporter)
    finally:
        _PROVIDER_OVERRIDE.reset(token)
        provider.shutdown()
