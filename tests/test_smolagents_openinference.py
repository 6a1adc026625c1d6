"""recurscope's smolagents spans next to OpenInference's: nested under theirs, nothing twice."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("smolagents")
pytest.importorskip("openinference.instrumentation.smolagents")

import smolagents
from openinference.instrumentation.smolagents import SmolagentsInstrumentor
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from test_smolagents import TASK_A, ScriptedModel, code, delegating_tree

from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.integrations.smolagents import instrument_agent

OURS = frozenset({sc.SPAN_CALL, sc.SPAN_TRIM, sc.SPAN_BOUNDARY_SHIFT})


@pytest.fixture
def openinference_spans(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[TracerProvider, InMemorySpanExporter]]:
    """OpenInference's smolagents instrumentation, recording into memory for the test only.

    OpenInference wraps the ``generate`` of the model classes smolagents
    exports; exporting the scripted model the same way gives the runs LLM spans.
    """
    monkeypatch.setattr(smolagents, "ScriptedModel", ScriptedModel, raising=False)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    instrumentor = SmolagentsInstrumentor()
    try:
        instrumentor.instrument(tracer_provider=provider)
    except AttributeError as exc:  # an OpenInference release newer than this smolagents
        with contextlib.suppress(Exception):
            instrumentor._uninstrument()  # undo what it wrapped before failing
        # A version break must fail loudly, not hide as a skip: pin the pair that works.
        pytest.fail(f"OpenInference cannot instrument this smolagents: {exc}")
    try:
        yield provider, exporter
    finally:
        instrumentor.uninstrument()
        provider.shutdown()


def run_tree(
    recording: tuple[TracerProvider, InMemorySpanExporter], *, ours: bool
) -> tuple[Any, list[ReadableSpan]]:
    provider, exporter = recording
    exporter.clear()
    manager, _, _ = delegating_tree()
    # No history read in the script: the run without recurscope must succeed too.
    manager.model.outputs[1] = code("final_answer(part)")
    if ours:
        instrument_agent(manager, session_id="s1", tracer_provider=provider)
    answer = manager.run(TASK_A)
    return answer, list(exporter.get_finished_spans())


def test_our_spans_nest_under_openinference_and_nothing_is_emitted_twice(
    openinference_spans: tuple[TracerProvider, InMemorySpanExporter],
) -> None:
    """OpenInference's spans are the same with and without recurscope; ours sit inside their tree."""
    plain_answer, plain = run_tree(openinference_spans, ours=False)
    answer, spans = run_tree(openinference_spans, ours=True)
    assert answer == plain_answer

    theirs = Counter(s.name for s in spans if s.name not in OURS)
    assert theirs == Counter(s.name for s in plain)  # nothing of theirs doubled or lost
    assert theirs["ScriptedModel.generate"] == 4  # manager x2, helper, researcher
    assert Counter(s.name for s in spans if s.name in OURS) == {
        sc.SPAN_CALL: 4,
        sc.SPAN_TRIM: 4,
        sc.SPAN_BOUNDARY_SHIFT: 3,
    }

    by_id = {s.context.span_id: s for s in spans}

    def parent(span: ReadableSpan) -> ReadableSpan:
        assert span.parent is not None and span.parent.span_id in by_id, span.name
        return by_id[span.parent.span_id]

    assert len({s.context.trace_id for s in spans}) == 1  # one trace: theirs
    calls = [s for s in spans if s.name == sc.SPAN_CALL]
    top = [s for s in calls if (s.attributes or {})[sc.CALL_DEPTH] == 0]
    delegated = [s for s in calls if (s.attributes or {})[sc.CALL_DEPTH] == 1]
    # A top-level call sits in OpenInference's step, beside the LLM span that wrote its code.
    for call in top:
        assert parent(call).name.startswith("Step ")
        assert parent(parent(call)).name == "CodeAgent.run"
    # The code's managed-agent runs (their AGENT spans) nest under the call that made them,
    # and so do the managed agents' own calls (delegations).
    first = min(top, key=lambda s: s.start_time or 0)
    assert {parent(s).name for s in spans if s.name in ("helper.run", "researcher.run")} == {
        sc.SPAN_CALL
    }
    assert all(parent(d) is first for d in delegated)
    same_role = {
        (d.attributes or {})[sc.CALL_ROLE]: (d.attributes or {})[sc.DELEGATION_SAME_ROLE]
        for d in delegated
    }
    assert same_role == {"helper": False, "researcher": False}
    # Tools the code called (final_answer) are OpenInference TOOL spans under our calls.
    tool_parents = {parent(s).name for s in spans if s.name == "FinalAnswerTool"}
    assert tool_parents == {sc.SPAN_CALL}
    # Trims are planned in the step, before the model call whose context they plan.
    for trim in (s for s in spans if s.name == sc.SPAN_TRIM):
        assert parent(trim).name.startswith("Step ")
