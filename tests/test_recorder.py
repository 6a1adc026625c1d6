"""Recording calls, delegations, trims and goal shifts as spans."""

from __future__ import annotations

import json

import pytest
from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from recurscope.instrumentation import History, HistoryRecord, Recorder, TokenCounter
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.testing import capture_spans

READS_HISTORY = (
    'h = context["conversation_history"]\nresult = [m for m in h if m["speaker"] == "user"]\n'
)
IGNORES_HISTORY = "result = 2 + 2\n"


def seeded_history(n: int = 4) -> History:
    history = History()
    for i in range(n):
        history.append(
            HistoryRecord.create(
                call_id=f"c{i}", speaker="user" if i % 2 else "agent", method_name="m"
            )
        )
    return history


class TestCallSpans:
    def test_call_span_carries_identity_session_and_prompt_version(self) -> None:
        """A call span names session, role, method, depth, ids and prompt version."""
        with capture_spans() as spans:
            recorder = Recorder("s1", prompt_version="v7", model="gpt-test")
            with recorder.call("history", role="calculator", call_id="c-1"):
                pass
        (span,) = spans.calls()
        attrs = span.attributes or {}
        assert attrs[sc.GEN_AI_CONVERSATION_ID] == "s1"
        assert attrs[sc.PROMPT_VERSION] == "v7"
        assert attrs[sc.GEN_AI_REQUEST_MODEL] == "gpt-test"
        assert attrs[sc.GEN_AI_AGENT_NAME] == attrs[sc.CALL_ROLE] == "calculator"
        assert attrs[sc.CALL_METHOD] == "history" and attrs[sc.CALL_ID] == "c-1"
        assert attrs[sc.CALL_DEPTH] == 0 and sc.CALL_PARENT_ID not in attrs
        assert span.instrumentation_scope is not None
        assert span.instrumentation_scope.name == sc.INSTRUMENTATION_SCOPE
        assert span.instrumentation_scope.version == sc.SEMCONV_VERSION

    def test_runtime_read_is_detected_without_code(self) -> None:
        """Reading the view marks the call accessed with runtime detection."""
        with capture_spans() as spans:
            recorder = Recorder("s1", history=seeded_history())
            with recorder.call("recap", role="a") as call:
                [r for r in call.view[-2:]]
        attrs = spans.calls()[0].attributes or {}
        assert attrs[sc.HISTORY_ACCESSED] is True
        assert attrs[sc.HISTORY_DETECTION] == "runtime"
        assert list(attrs[sc.HISTORY_OPS]) == ["slice"]
        assert attrs[sc.HISTORY_RECORDS_READ] == 2
        assert attrs[sc.HISTORY_SIZE] == 4

    def test_static_and_runtime_evidence_combine(self) -> None:
        """Code that reads history and runs against the view is detected by both."""
        with capture_spans() as spans:
            recorder = Recorder("s1", history=seeded_history())
            with recorder.call("users", role="a", code=READS_HISTORY) as call:
                exec(READS_HISTORY, {"context": {"conversation_history": call.view}})
        attrs = spans.calls()[0].attributes or {}
        assert attrs[sc.HISTORY_DETECTION] == "both"
        assert {"filter", "iterate"} <= set(attrs[sc.HISTORY_OPS])
        assert attrs[sc.CODE_LANGUAGE] == "python" and attrs[sc.CODE_ANALYSIS] == "ast"
        assert len(str(attrs[sc.CODE_FINGERPRINT])) == 16
        assert attrs[sc.CODE_SIZE] == len(READS_HISTORY)
        assert sc.CODE_CONTENT not in attrs

    def test_static_only_access_on_an_unexecuted_path(self) -> None:
        """Code that would read history on a path not taken is still accessed (static)."""
        code = 'if False:\n    result = len(context["conversation_history"])\n'
        with capture_spans() as spans:
            recorder = Recorder("s1", history=seeded_history())
            with recorder.call("maybe", role="a", code=code) as call:
                exec(code, {"context": {"conversation_history": call.view}})
        attrs = spans.calls()[0].attributes or {}
        assert attrs[sc.HISTORY_ACCESSED] is True and attrs[sc.HISTORY_DETECTION] == "static"

    def test_no_access_is_recorded_explicitly(self) -> None:
        """A call that ignores history still says accessed=False (the denominator)."""
        with capture_spans() as spans:
            recorder = Recorder("s1", history=seeded_history())
            with recorder.call("add", role="a", code=IGNORES_HISTORY):
                pass
        attrs = spans.calls()[0].attributes or {}
        assert attrs[sc.HISTORY_ACCESSED] is False and attrs[sc.HISTORY_DETECTION] == "none"
        assert list(attrs[sc.HISTORY_OPS]) == [] and attrs[sc.HISTORY_CONTEXTVIEW_SHAPED] is False
        assert sc.CODE_FINGERPRINT not in attrs

    def test_content_only_with_capture_on(self) -> None:
        """Args, kwargs and code are exported only with content capture; sizes always."""
        with capture_spans() as spans:
            Recorder("s1").start_call(
                "add", role="a", code=IGNORES_HISTORY, args=[1, 2], kwargs={"u": "cm"}
            ).stop()
            Recorder("s2", capture_content=True).start_call(
                "add", role="a", code=IGNORES_HISTORY, args=[1, 2], kwargs={"u": "cm"}
            ).stop(outcome={"ok": True})
        off, on = (s.attributes or {} for s in spans.calls())
        assert sc.CALL_ARGS not in off and sc.CODE_CONTENT not in off
        assert off[sc.CALL_ARGS_SIZE] == on[sc.CALL_ARGS_SIZE] == len("[1,2]") + len('{"u":"cm"}')
        assert on[sc.CALL_ARGS] == "[1,2]" and on[sc.CALL_KWARGS] == '{"u":"cm"}'
        assert on[sc.CODE_CONTENT] == IGNORES_HISTORY
        assert on[sc.CALL_OUTCOME_SUMMARY] == '{"ok":true}'

    def test_content_capture_follows_the_environment(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """RECURSCOPE_CAPTURE_CONTENT=true switches content capture on by default."""
        monkeypatch.setenv("RECURSCOPE_CAPTURE_CONTENT", "true")
        assert Recorder("s").capture_content is True
        monkeypatch.delenv("RECURSCOPE_CAPTURE_CONTENT")
        assert Recorder("s").capture_content is False

    def test_exception_sets_error_and_reraises(self) -> None:
        """An exception in the block is recorded, marks the span ERROR and propagates."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with pytest.raises(ZeroDivisionError), recorder.call("div", role="a"):
                1 / 0  # noqa: B018
        (span,) = spans.calls()
        assert span.status.status_code is StatusCode.ERROR
        assert (span.attributes or {})[sc.CALL_OUTCOME_STATUS] == "error"
        assert span.events[0].name == "exception"

    def test_nests_under_the_hosts_active_span(self) -> None:
        """A call started inside a host span is its child; host spans inside the call nest under it."""
        with capture_spans() as spans:
            host = spans.tracer_provider.get_tracer("host")
            with host.start_as_current_span("host.request") as outer:
                with Recorder("s1").call("ask", role="a"):
                    with host.start_as_current_span("host.llm"):
                        pass
        by_name = {s.name: s for s in spans}
        call = by_name[sc.SPAN_CALL]
        assert call.parent is not None and call.parent.span_id == outer.get_span_context().span_id
        assert by_name["host.llm"].parent.span_id == call.context.span_id  # type: ignore[union-attr]

    def test_explicit_provider_is_used_without_globals(self) -> None:
        """A recorder given a tracer_provider records there, not globally."""
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        Recorder("s1", tracer_provider=provider).start_call("m", role="r").stop()
        assert [s.name for s in exporter.get_finished_spans()] == [sc.SPAN_CALL]

    def test_stop_is_idempotent(self) -> None:
        """Stopping twice records one span."""
        with capture_spans() as spans:
            call = Recorder("s1").start_call("m", role="r")
            call.stop()
            call.stop()
        assert len(spans.calls()) == 1

    def test_evictions_are_counted_on_the_call(self) -> None:
        """Records evicted by retention since the previous call land on the next call span."""
        from recurscope.instrumentation import Retention

        with capture_spans() as spans:
            history = History(retention=Retention(max_records=2))
            recorder = Recorder("s1", history=history)
            for _ in range(5):
                with recorder.call("m", role="r") as call:
                    history.append(call.to_record(outcome_summary={"ok": True}))
        evicted = [(s.attributes or {})[sc.HISTORY_EVICTED] for s in spans.calls()]
        assert evicted == [0, 0, 1, 1, 1]
        assert (spans.calls()[0].attributes or {})[sc.HISTORY_RETENTION] == "count"

    def test_to_record_carries_runtime_fields(self) -> None:
        """The record of a call has its ids, depth, parent and trace id."""
        with capture_spans():
            recorder = Recorder("s1")
            with recorder.call("outer", role="a", call_id="p") as parent:
                with parent.delegate("b", method="inner", call_id="k") as child:
                    record = child.to_record(outcome_summary={"ok": True})
        assert record.parent_call_id == "p" and record.depth == 1
        assert record.trace_id is not None and len(record.trace_id) == 32
        assert record.duration_ms is not None and record.duration_ms >= 0


class TestDelegation:
    def test_delegation_is_a_child_call_with_depth_and_kind(self) -> None:
        """A delegate() inside a call is its child span with parent id, depth and kind."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with recorder.call("plan", role="planner", call_id="p1"):
                with recorder.delegate(
                    "researcher", method="find", delegation_kind="agent_for", call_id="k1"
                ):
                    pass
        child, parent = spans.calls()
        attrs = child.attributes or {}
        assert child.parent is not None and child.parent.span_id == parent.context.span_id  # type: ignore[union-attr]
        assert attrs[sc.CALL_PARENT_ID] == "p1" and attrs[sc.CALL_DEPTH] == 1
        assert attrs[sc.DELEGATION_KIND] == "agent_for"
        assert attrs[sc.DELEGATION_CALLER_ROLE] == "planner"
        assert attrs[sc.DELEGATION_SAME_ROLE] is False

    def test_same_role_against_caller_and_ancestors(self) -> None:
        """same_role is true when the target repeats the caller's or any ancestor's role."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with recorder.call("a", role="calculator") as root:
                with root.delegate("calculator", method="b"):  # caller's role
                    with recorder.delegate("parser", method="c"):
                        with recorder.delegate("calculator", method="d"):  # ancestor's role
                            pass
        by_method = {
            (s.attributes or {})[sc.CALL_METHOD]: s.attributes or {} for s in spans.calls()
        }
        assert by_method["b"][sc.DELEGATION_SAME_ROLE] is True
        assert by_method["c"][sc.DELEGATION_SAME_ROLE] is False
        assert by_method["d"][sc.DELEGATION_SAME_ROLE] is True
        assert by_method["d"][sc.CALL_DEPTH] == 3

    def test_start_stop_form_restores_the_current_call(self) -> None:
        """After a child stops, the parent is the current call again."""
        from recurscope.instrumentation import current_call

        with capture_spans():
            recorder = Recorder("s1")
            parent = recorder.start_call("a", role="r")
            child = parent.delegate("r", method="b")
            assert current_call() is child
            child.stop()
            assert current_call() is parent
            parent.stop()
            assert current_call() is None


class TestTrimAndGoals:
    def test_every_planning_emits_a_trim_span(self) -> None:
        """A plan that fits still emits a trim span with phase fits."""
        messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
        with capture_spans() as spans:
            recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
            plan = recorder.plan_trim(messages, budget=1000)
        assert plan.phase == "fits"
        (span,) = spans.trims()
        attrs = span.attributes or {}
        assert attrs[sc.TRIM_PHASE] == "fits" and attrs[sc.TRIM_TRIMMED] is False
        assert attrs[sc.GEN_AI_CONVERSATION_ID] == "s1" and attrs[sc.TRIM_UNIT] == "bytes"

    def test_extra_attributes_from_a_mapping_or_from_the_plan(self) -> None:
        """attributes= adds span attributes after the plan's; a callable gets the plan."""
        messages = [
            {"role": "user", "content": "x" * 50},
            {"role": "assistant", "content": "y" * 50},
        ]
        with capture_spans() as spans:
            recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
            recorder.plan_trim(messages, budget=1000, attributes={"app.turn": 3})
            seen: list[str] = []

            def from_plan(plan: object) -> dict[str, str]:
                seen.append(plan.phase)
                return {"app.phase_seen": plan.phase}

            recorder.plan_trim(messages, budget=60, attributes=from_plan)

            def broken(plan: object) -> dict[str, str]:
                raise RuntimeError("host bug")

            plan = recorder.plan_trim(messages, budget=60, attributes=broken)
            recorder.record_need("fix the tests", 0, attributes={"app.source": "annotation"})
        first, second, third = (span.attributes or {} for span in spans.trims())
        assert first["app.turn"] == 3 and first[sc.TRIM_PHASE] == "fits"
        assert seen == ["no_boundary"] and second["app.phase_seen"] == "no_boundary"
        assert plan.trimmed and third[sc.INSTRUMENTATION_ERRORS] == 1  # never raised
        (shift,) = spans.boundary_shifts()
        assert (shift.attributes or {})["app.source"] == "annotation"

    def test_trimming_marks_the_running_call_compacted(self) -> None:
        """When the plan trims, the running call gets gen_ai.conversation.compacted."""
        messages = [
            {"role": "user", "content": "x" * 100},
            {"role": "assistant", "content": "y" * 100},
            {"role": "user", "content": "z" * 10},
        ]
        with capture_spans() as spans:
            recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
            with recorder.call("turn", role="a"):
                plan = recorder.plan_trim(messages, budget=50, strategy="drop_oldest")
        assert plan.trimmed
        call_attrs = spans.calls()[0].attributes or {}
        assert call_attrs[sc.GEN_AI_CONVERSATION_COMPACTED] is True
        trim = spans.trims()[0]
        assert trim.parent is not None and trim.parent.span_id == spans.calls()[0].context.span_id  # type: ignore[union-attr]

    def test_goal_switch_moves_the_boundary_used_by_the_planner(self) -> None:
        """record_need emits boundary shifts and the next plan uses the new boundary."""
        counter = TokenCounter("bytes")
        messages: list[dict[str, str]] = []
        with capture_spans() as spans:
            recorder = Recorder("s1", token_counter=counter)
            recorder.record_need("build a parser for invoices", messages)
            messages += [
                {"role": "user", "content": "a" * 200},
                {"role": "assistant", "content": "b" * 200},
            ]
            shift = recorder.record_need("translate this poem to French", messages)
            messages += [{"role": "user", "content": "c" * 50}]
            plan = recorder.plan_trim(messages, budget=300)
        assert shift is not None and shift.reason == "new_goal" and shift.position == 3
        assert plan.phase == "pre_boundary" and plan.boundary_index == 2
        first, second = spans.boundary_shifts()
        assert (first.attributes or {})[sc.GOAL_REASON] == "first_need"
        attrs = second.attributes or {}
        assert attrs[sc.GOAL_BOUNDARY_FROM] == 0 and attrs[sc.GOAL_BOUNDARY_TO] == 2
        assert attrs[sc.GOAL_SUPERSEDES_EARLIER] is True
        assert sc.GOAL_NEED_TEXT not in attrs and len(str(attrs[sc.GOAL_NEED_HASH])) == 16


class TestTelemetryOff:
    def test_no_provider_means_no_spans_and_a_working_view(self) -> None:
        """With nothing configured, calls still hand out a view and never record."""
        recorder = Recorder(
            "s1", history=seeded_history(), tracer_provider=trace.NoOpTracerProvider()
        )
        with recorder.call("m", role="r", code=READS_HISTORY) as call:
            assert not call.recording
            assert len([r for r in call.view]) == 4

    def test_sdk_disabled_records_nothing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """OTEL_SDK_DISABLED=true makes the SDK provider hand out no-op tracers; we record nothing."""
        monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        recorder = Recorder("s1", tracer_provider=provider)
        with recorder.call("m", role="r") as call:
            assert not call.recording
        recorder.plan_trim([{"role": "user", "content": "x"}], budget=10)
        assert exporter.get_finished_spans() == ()


def test_history_records_work_with_telemetry_off() -> None:
    """With telemetry off, call handles still give unique call ids, depth and parents for records."""
    recorder = Recorder("s1", tracer_provider=trace.NoOpTracerProvider())
    with recorder.call("a", role="r") as parent:
        with parent.delegate("r", method="b") as child:
            record = child.to_record(outcome_summary={"ok": True})
    assert parent.call_id and child.call_id and parent.call_id != child.call_id
    assert record.parent_call_id == parent.call_id and record.depth == 1


def test_observational_trim_does_not_mark_the_call() -> None:
    """applied=False records the plan as observed only: no compacted mark, role from the running call."""
    messages = [{"role": "user", "content": "x" * 100}, {"role": "user", "content": "z" * 10}]
    with capture_spans() as spans:
        recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
        with recorder.call("turn", role="planner"):
            plan = recorder.plan_trim(messages, budget=50, strategy="drop_oldest", applied=False)
    assert plan.trimmed
    trim = spans.trims()[0].attributes or {}
    assert trim[sc.TRIM_APPLIED] is False and sc.GEN_AI_CONVERSATION_COMPACTED not in trim
    assert trim[sc.GEN_AI_AGENT_NAME] == "planner"
    assert sc.GEN_AI_CONVERSATION_COMPACTED not in (spans.calls()[0].attributes or {})


class TestReadingElsewhere:
    """Backends that keep span attributes only (Phoenix) still see the run, kinds and content."""

    def test_every_span_repeats_the_run_of_the_resource(self) -> None:
        """Calls, trims, boundary shifts and the session span carry recurscope.run.id."""
        with capture_spans(run_id="run-7") as spans:
            recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
            with recorder.session():
                recorder.record_need("sum the numbers", [])
                recorder.plan_trim([{"role": "user", "content": "hi"}], budget=100)
                with recorder.call("add", role="calculator"):
                    pass
        assert {s.name for s in spans} == {
            sc.SPAN_CALL,
            sc.SPAN_TRIM,
            sc.SPAN_BOUNDARY_SHIFT,
            sc.SPAN_SESSION,
        }
        assert all((s.attributes or {})[sc.RUN_ID] == "run-7" for s in spans)
        assert all(s.resource.attributes[sc.SERVICE_INSTANCE_ID] == "run-7" for s in spans)

    def test_no_run_id_without_one_on_the_resource(self) -> None:
        """A provider whose resource names no run gets no invented one."""
        exporter = InMemorySpanExporter()
        provider = TracerProvider(resource=Resource({"service.name": "host"}))
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        Recorder("s1", tracer_provider=provider).start_call("m", role="r").stop()
        (span,) = exporter.get_finished_spans()
        assert sc.SERVICE_INSTANCE_ID not in span.resource.attributes
        assert sc.RUN_ID not in (span.attributes or {})

    def test_openinference_kinds(self) -> None:
        """Calls (delegations too) are AGENT; trims, boundary shifts and sessions are CHAIN."""
        with capture_spans() as spans:
            recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
            with recorder.session():
                recorder.record_need("a goal", [])
                with recorder.call("plan", role="planner"):
                    recorder.plan_trim([{"role": "user", "content": "hi"}], budget=100)
                    with recorder.delegate("helper", method="find"):
                        pass
        kinds = {(s.name, (s.attributes or {})[sc.OPENINFERENCE_SPAN_KIND]) for s in spans}
        assert kinds == {
            (sc.SPAN_CALL, "AGENT"),
            (sc.SPAN_TRIM, "CHAIN"),
            (sc.SPAN_BOUNDARY_SHIFT, "CHAIN"),
            (sc.SPAN_SESSION, "CHAIN"),
        }

    def test_input_and_output_only_with_content_capture(self) -> None:
        """input.value / output.value are on call spans with capture on, and nowhere with it off."""
        with capture_spans() as spans:
            for capture in (False, True):
                recorder = Recorder(
                    "on" if capture else "off",
                    capture_content=capture,
                    token_counter=TokenCounter("bytes"),
                )
                with recorder.session():
                    recorder.record_need("the need text", [])
                    recorder.plan_trim([{"role": "user", "content": "secret"}], budget=100)
                    call = recorder.start_call("add", role="a", args=[1, 2], kwargs={"u": "cm"})
                    call.stop(outcome={"ok": True, "value": 3})
        content = {sc.INPUT_VALUE, sc.INPUT_MIME_TYPE, sc.OUTPUT_VALUE, sc.OUTPUT_MIME_TYPE}
        by_session: dict[str, list[ReadableSpan]] = {"off": [], "on": []}
        for span in spans:
            by_session[str((span.attributes or {})[sc.GEN_AI_CONVERSATION_ID])].append(span)
        assert len(by_session["off"]) == len(by_session["on"]) == 4
        assert all(content.isdisjoint(s.attributes or {}) for s in by_session["off"])
        for span in by_session["on"]:
            attrs = span.attributes or {}
            if span.name != sc.SPAN_CALL:
                assert content.isdisjoint(attrs), span.name  # call spans only
                continue
            assert json.loads(str(attrs[sc.INPUT_VALUE])) == {
                "method": "add",
                "args": [1, 2],
                "kwargs": {"u": "cm"},
            }
            assert json.loads(str(attrs[sc.OUTPUT_VALUE])) == {"ok": True, "value": 3}
            assert attrs[sc.INPUT_MIME_TYPE] == attrs[sc.OUTPUT_MIME_TYPE] == "application/json"

    def test_output_comes_from_the_history_record_when_stop_has_none(self) -> None:
        """With capture on, the outcome given to to_record() is the call's output."""
        with capture_spans() as spans:
            recorder = Recorder("s1", capture_content=True)
            with recorder.call("add", role="a") as call:
                call.to_record(outcome_summary={"ok": True, "value": 5})
        attrs = spans.calls()[0].attributes or {}
        assert attrs[sc.OUTPUT_VALUE] == attrs[sc.CALL_OUTCOME_SUMMARY] == '{"ok":true,"value":5}'
        assert attrs[sc.INPUT_VALUE] == '{"method":"add","args":[],"kwargs":{}}'


class TestSessionSpan:
    def test_a_sessions_top_level_spans_share_one_trace_under_it(self) -> None:
        """Shifts, trims and calls outside any span nest under the session span: one trace."""
        with capture_spans() as spans:
            recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
            with recorder.session():
                for turn in range(3):
                    recorder.record_need(f"goal number {turn}", turn * 2)
                    recorder.plan_trim([{"role": "user", "content": "hi"}], budget=100)
                    with recorder.call("turn", role="planner"):
                        recorder.plan_trim([{"role": "user", "content": "hi"}], budget=100)
                        with recorder.delegate("helper", method="find"):
                            pass
        (session,) = spans.sessions()
        by_id = {s.context.span_id: s for s in spans}
        assert {s.context.trace_id for s in spans} == {session.context.trace_id}
        assert session.parent is None
        for span in spans:
            if span is session:
                continue
            assert span.parent is not None
            parent = by_id[span.parent.span_id]
            depth = (span.attributes or {}).get(sc.CALL_DEPTH)
            if span.name == sc.SPAN_CALL and depth == 1:
                assert parent.name == sc.SPAN_CALL  # a delegation's parent is still its caller
            elif span.name == sc.SPAN_TRIM and parent.name == sc.SPAN_CALL:
                continue  # a trim planned inside a call nests in that call
            else:
                assert parent is session, span.name
        top = [c for c in spans.calls() if (c.attributes or {})[sc.CALL_DEPTH] == 0]
        assert len(top) == 3 and all(sc.CALL_PARENT_ID not in (c.attributes or {}) for c in top)
        # The session span ends last, so it has been exported by the end of the block.
        assert spans[-1] is session

    def test_a_host_span_stays_the_parent(self) -> None:
        """With a host span active, ours nest under it, not under the session span."""
        with capture_spans() as spans:
            host = spans.tracer_provider.get_tracer("host")
            recorder = Recorder("s1")
            with recorder.session():
                with host.start_as_current_span("host.turn") as turn:
                    with recorder.call("ask", role="a"):
                        pass
        call = spans.calls()[0]
        assert call.parent is not None and call.parent.span_id == turn.get_span_context().span_id

    def test_without_a_session_each_top_level_span_is_a_root(self) -> None:
        """Nothing changes for hosts that do not open a session span."""
        with capture_spans() as spans:
            recorder = Recorder("s1", token_counter=TokenCounter("bytes"))
            recorder.record_need("a goal", [])
            recorder.plan_trim([{"role": "user", "content": "hi"}], budget=100)
            recorder.start_call("m", role="r").stop()
        assert all(s.parent is None for s in spans) and not spans.sessions()
        assert len({s.context.trace_id for s in spans}) == 3

    def test_close_ends_it_and_later_spans_are_roots_again(self) -> None:
        """close() ends the open session span (idempotently); later spans start their own traces."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            session = recorder.start_session()
            assert session.recording and not spans.sessions()  # exported only when it ends
            recorder.start_call("a", role="r").stop()
            recorder.close()
            recorder.close()
            recorder.start_call("b", role="r").stop()
        (ended,) = spans.sessions()
        first, second = spans.calls()
        assert first.parent is not None and first.parent.span_id == ended.context.span_id
        assert second.parent is None

    def test_a_second_start_does_not_own_the_open_span(self) -> None:
        """A nested session() shares the open span and leaves it open when its block ends."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with recorder.session() as outer:
                with recorder.session() as inner:
                    assert inner.span is outer.span
                recorder.start_call("m", role="r").stop()
        (session,) = spans.sessions()
        call = spans.calls()[0]
        assert call.parent is not None and call.parent.span_id == session.context.span_id

    def test_an_exception_marks_the_session_and_propagates(self) -> None:
        """An exception leaving the block is recorded on the session span and re-raised."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with pytest.raises(KeyError), recorder.session():
                raise KeyError("lost")
        (session,) = spans.sessions()
        assert session.status.status_code is StatusCode.ERROR
        assert session.events[0].name == "exception"

    def test_telemetry_off_and_broken_tracers_never_reach_the_host(self) -> None:
        """With no provider or a tracer that raises, session() is a no-op handle."""

        class BrokenTracer:
            def start_span(self, *args: object, **kwargs: object) -> object:
                raise RuntimeError("tracer broke")

        class BrokenProvider:
            def get_tracer(self, *args: object, **kwargs: object) -> object:
                return BrokenTracer()

        for provider in (trace.NoOpTracerProvider(), BrokenProvider()):
            recorder = Recorder("s1", tracer_provider=provider)  # type: ignore[arg-type]
            with recorder.session() as session:
                assert not session.recording
                with recorder.call("m", role="r") as call:
                    assert len(call.view) == 0
                recorder.plan_trim([{"role": "user", "content": "hi"}], budget=100)
            recorder.close()
