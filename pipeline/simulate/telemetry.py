"""Where simulated spans go, and when they say they happened.

Each run records through its own SDK ``TracerProvider`` whose resource is
the run's (``service.name``, ``service.instance.id``, ``service.version``,
``recurscope.seed``) and says ``recurscope.origin = simulated``. One
:class:`Destination` — an OTLP JSON lines file (what ``recurscope ingest``
reads) or a running ``recurscope serve`` (OTLP/HTTP through the SDK's
exporter) — takes every run's spans.

**Placed in time.** A scripted model answers in microseconds and a
simulation runs "now"; the evidence needs sessions on several calendar
days. :class:`_PlacingProcessor` rewrites each span as it ends: a session's
spans move so that the session starts at its planned moment, and times
within the session are stretched by :data:`TIME_STRETCH` (order and nesting
kept). It hands copies (``ReadableSpan``, the SDK's public span record) to
the exporter in batches on the recording thread, so nothing is dropped under
load the way a full ``BatchSpanProcessor`` queue drops spans, and a million
spans need no more memory than a batch. Export faults are counted, never
raised.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any, Final

from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan, Span, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from recurscope.instrumentation import semconv as sc

from ..replay.replay import traces_url
from .plan import RunPlan

__all__ = ["BATCH", "ORIGIN_SIMULATED", "TIME_STRETCH", "Destination", "SimulateError"]

ORIGIN_SIMULATED: Final = "simulated"
"""``recurscope.origin`` of every simulated span's resource."""

TIME_STRETCH: Final = 1000
"""Factor applied to times within a session: a 20 ms scripted session lasts 20 s."""

BATCH: Final = 512
"""Spans handed to the exporter at a time."""

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_log = logging.getLogger(__name__)


class SimulateError(Exception):
    """A simulation that cannot run as asked; the message says what to do instead."""


def ns(moment: datetime) -> int:
    """Nanoseconds since the epoch, exactly (``timestamp()`` is a float)."""
    return (moment - _EPOCH) // timedelta(microseconds=1) * 1000


class _PlacingProcessor(SpanProcessor):
    """Moves each ending span to its session's planned time; exports in batches of :data:`BATCH`."""

    def __init__(self, destination: Destination, run_start: int) -> None:
        self._destination = destination
        self._run_start = run_start
        self._run_origin: int | None = None
        self._buffer: list[ReadableSpan] = []
        self._lock = threading.Lock()

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        return None

    def _shift(self, value: int | None, origin: int, start: int) -> int | None:
        return None if value is None else start + (value - origin) * TIME_STRETCH

    def on_end(self, span: ReadableSpan) -> None:
        try:
            attributes = span.attributes or {}
            placed = self._destination.placements.get(
                str(attributes.get(sc.GEN_AI_CONVERSATION_ID))
            )
            if placed is None:
                if self._run_origin is None:
                    self._run_origin = span.start_time or 0
                origin, start = self._run_origin, self._run_start
            else:
                origin, start = placed
            copy = ReadableSpan(
                name=span.name,
                context=span.context,
                parent=span.parent,
                resource=span.resource,
                attributes=span.attributes,
                events=[
                    Event(e.name, e.attributes, self._shift(e.timestamp, origin, start))
                    for e in span.events
                ],
                links=span.links,
                kind=span.kind,
                status=span.status,
                start_time=self._shift(span.start_time, origin, start),
                end_time=self._shift(span.end_time, origin, start),
                instrumentation_scope=span.instrumentation_scope,
            )
        except Exception:  # never into the simulated runtime
            _log.debug("a simulated span could not be placed", exc_info=True)
            self._destination.failures += 1
            return
        with self._lock:
            self._buffer.append(copy)
            full = len(self._buffer) >= BATCH
        if full:
            self.force_flush()

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        with self._lock:
            batch, self._buffer = self._buffer, []
        return self._destination.export(batch) if batch else True

    def shutdown(self) -> None:
        self.force_flush()


class Destination:
    """Where every run's spans go: an OTLP JSON lines file (replaced) or an OTLP/HTTP endpoint.

    ``placements`` maps a session id to (the wall-clock nanoseconds it began
    recording, its planned start); :meth:`place` fills it. ``spans`` counts
    spans exported, ``dropped`` spans not exported, ``failures`` export
    batches that failed (or spans that could not be placed).
    """

    def __init__(self, *, out: str | Path | None = None, endpoint: str | None = None) -> None:
        if (out is None) == (endpoint is None):
            raise SimulateError("give exactly one of out (a file) and endpoint (a URL)")
        self.out = Path(out) if out is not None else None
        self.endpoint = _traces_url(endpoint) if endpoint is not None else None
        self.placements: dict[str, tuple[int, int]] = {}
        self.spans = 0
        self.dropped = 0
        self.failures = 0
        self._stream: IO[str] | None = None
        self._exporter: SpanExporter
        self._lock = threading.Lock()
        if self.out is not None:
            from opentelemetry.exporter.otlp.json.file import FileSpanExporter

            if self.out.is_dir():
                raise SimulateError(f"{self.out} is a folder: name a file for the spans")
            self.out.parent.mkdir(parents=True, exist_ok=True)
            self._stream = self.out.open("w", encoding="utf-8")  # replaced: no doubled sessions
            self._exporter = FileSpanExporter(stream=self._stream)
        else:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            self._exporter = OTLPSpanExporter(endpoint=self.endpoint)

    def place(self, session_id: str, start: datetime) -> None:
        """The session starts recording now; its spans will say it started at ``start``."""
        self.placements[session_id] = (time.time_ns(), ns(start))

    def provider(self, run: RunPlan) -> TracerProvider:
        """A tracer provider for one run, recording here with the run's resource."""
        resource = Resource.create(
            {
                "service.name": run.service,
                sc.SERVICE_INSTANCE_ID: run.run_id,
                sc.SERVICE_VERSION: run.version,
                sc.SEED: run.seed,
                sc.ORIGIN: ORIGIN_SIMULATED,
            }
        )
        provider = TracerProvider(resource=resource)
        provider.add_span_processor(_PlacingProcessor(self, ns(run.start)))
        return provider

    def export(self, batch: Sequence[ReadableSpan]) -> bool:
        """Hand a batch to the exporter; after a failure, later batches are dropped at once.

        (An OTLP exporter retries a dead endpoint for seconds per batch; the
        simulation checks :attr:`failures` after each session and stops.)
        """
        with self._lock:
            if self.failures:
                self.dropped += len(batch)
                return False
            try:
                result = self._exporter.export(batch)
            except Exception:
                _log.warning("recurscope simulate: an export failed", exc_info=True)
                result = SpanExportResult.FAILURE
            if result != SpanExportResult.SUCCESS:
                self.failures += 1
                self.dropped += len(batch)
                return False
            self.spans += len(batch)
            if self._stream is not None:
                self._stream.flush()
            return True

    def close(self) -> None:
        """Shut the exporter down and close the file; safe to call twice."""
        with contextlib.suppress(Exception):
            self._exporter.shutdown()
        if self._stream is not None and not self._stream.closed:
            self._stream.close()

    def __enter__(self) -> Destination:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


def _traces_url(endpoint: str) -> str:
    try:
        return traces_url(endpoint)
    except ValueError as error:
        raise SimulateError(str(error)) from None
