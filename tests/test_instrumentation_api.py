"""The recording API as a newcomer meets it: misuse is recorded as a fault, never raised.

Each test pins one answer to the outside report on docs/instrumentation.md: a
telemetry nobody was given is warned about, chat roles are accepted where
speakers are, delegations without a caller or with an unknown kind are
counted on the span, one keyword names the delegation kind, ``apply`` takes
its orientation from the plan, and captured spans can be written as OTLP
JSON lines.
"""

from __future__ import annotations

import inspect
import json
import logging
import warnings
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.exporter.otlp.json.file import FileSpanExporter
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import StatusCode

from recurscope.instrumentation import (
    DELEGATION_KINDS,
    SPEAKERS,
    HistoryRecord,
    Recorder,
    TokenCounter,
    _faults,
    _unrouted,
    config,
    configure,
    plan_trim,
    role_for_speaker,
    speaker_for_role,
)
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.testing import capture_spans

ROOT = Path(__file__).resolve().parent.parent
LOGGER = "recurscope.instrumentation"


@pytest.fixture
def fresh_fault_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fault site logs again, as in a fresh process (sites log once per process)."""
    monkeypatch.setattr(_faults, "_seen", set())


@pytest.fixture
def unset_global_provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """OTel's global provider is the default proxy, and no telemetry is live or has warned yet."""
    proxy = trace.ProxyTracerProvider()
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: proxy)
    monkeypatch.setattr(_unrouted, "_live", weakref.WeakValueDictionary())
    monkeypatch.setattr(_unrouted, "_warned", False)
    yield


def attrs_of(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


def warnings_about(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if text in r.getMessage()]


# --- a Telemetry that no recorder was given ------------------------------------------------


@pytest.mark.usefixtures("unset_global_provider")
class TestUnroutedRecorder:
    def test_recorder_without_provider_warns_once_and_records_nothing(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        """configure('file') then Recorder() without tracer_provider warns once; the file stays empty."""
        out = tmp_path / "spans.jsonl"
        telemetry = configure("file", path=out, batch=False)
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            for session in ("s1", "s2"):
                with Recorder(session).call("m", role="r") as call:
                    assert not call.recording  # the telemetry is not silently used
        telemetry.shutdown()
        (message,) = warnings_about(caplog, "records nowhere")
        assert "tracer_provider=telemetry.tracer_provider" in message
        assert "set_global=True" in message and str(out) in message
        assert out.stat().st_size == 0

    def test_no_warning_without_a_live_telemetry(self, caplog: pytest.LogCaptureFixture) -> None:
        """Without configure() (or after shutdown) recording nowhere is the intended no-op."""
        configure("console").shutdown()
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            with Recorder("s1").call("m", role="r"):
                pass
        assert not warnings_about(caplog, "records nowhere")

    def test_no_warning_when_the_provider_is_given_or_captured(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        """A recorder given the telemetry's provider, or inside capture_spans(), records: no warning."""
        telemetry = configure("file", path=tmp_path / "spans.jsonl", batch=False)
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            with Recorder("s1", tracer_provider=telemetry.tracer_provider).call("m", role="r"):
                pass
            with capture_spans(), Recorder("s2").call("m", role="r"):
                pass
        telemetry.shutdown()
        assert not warnings_about(caplog, "records nowhere")
        assert (tmp_path / "spans.jsonl").stat().st_size > 0

    def test_configure_after_first_use_is_noticed(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        """A recorder that already resolved its tracer notices a later configure() on its next call."""
        recorder = Recorder("s1")
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            with recorder.call("m", role="r"):
                pass
            telemetry = configure("file", path=tmp_path / "spans.jsonl")
            with recorder.call("m", role="r"):
                pass
        telemetry.shutdown()
        assert len(warnings_about(caplog, "records nowhere")) == 1


# --- speakers and chat roles -----------------------------------------------------------------


class TestSpeakers:
    @pytest.mark.parametrize(
        ("role", "speaker"),
        [
            ("user", "user"),
            ("assistant", "agent"),
            ("tool", "tool"),
            ("function", "tool"),
            ("ipython", "tool"),
            ("agent", "agent"),
        ],
    )
    def test_chat_roles_map_to_speakers(self, role: str, speaker: str) -> None:
        """speaker_for_role maps each chat role to its history speaker; speakers pass unchanged."""
        assert speaker_for_role(role) == speaker

    @pytest.mark.parametrize("role", ["system", "developer", "Assistant", "", None])
    def test_roles_without_a_speaker_raise_saying_why(self, role: Any) -> None:
        """System/developer messages and unknown names map to no speaker: ValueError naming them."""
        with pytest.raises(ValueError, match="orientation"):
            speaker_for_role(role)

    def test_speakers_map_back_to_chat_roles(self) -> None:
        """role_for_speaker is the inverse on speakers: agent -> assistant."""
        assert [role_for_speaker(s) for s in SPEAKERS] == ["user", "assistant", "tool"]
        assert all(speaker_for_role(role_for_speaker(s)) == s for s in SPEAKERS)
        with pytest.raises(ValueError, match="user, agent, tool"):
            role_for_speaker("assistant")

    def test_history_record_error_points_at_the_mapping(self) -> None:
        """HistoryRecord stays strict about speakers, and says how to map a chat role."""
        with pytest.raises(ValueError, match="speaker_for_role"):
            HistoryRecord.create(call_id="c", speaker="assistant", method_name="m")

    def test_to_record_accepts_chat_roles(self) -> None:
        """to_record(speaker='assistant') records an agent record and no fault."""
        with capture_spans() as spans:
            with Recorder("s1").call("m", role="r") as call:
                record = call.to_record(speaker="assistant", outcome_summary={"ok": True})
                tool = call.to_record(speaker="function")
        assert record.speaker == "agent" and tool.speaker == "tool"
        assert sc.INSTRUMENTATION_ERRORS not in attrs_of(spans.calls()[0])

    @pytest.mark.usefixtures("fresh_fault_log")
    def test_to_record_misuse_is_a_fault_on_the_span_not_an_error(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        """A speaker that maps to none is recorded as agent and counted; the call ends OK."""
        with capture_spans() as spans, caplog.at_level(logging.WARNING, logger=LOGGER):
            with Recorder("s1").call("m", role="r") as call:
                record = call.to_record(speaker="system")
                call.to_record(speaker="narrator")
        (span,) = spans.calls()
        assert record.speaker == "agent"
        assert attrs_of(span)[sc.INSTRUMENTATION_ERRORS] == 2
        assert attrs_of(span)[sc.CALL_OUTCOME_STATUS] == "ok"
        assert span.status.status_code is not StatusCode.ERROR
        assert len(warnings_about(caplog, "call.to_record.speaker")) == 1

    def test_to_record_with_unusable_args_keeps_the_record(self) -> None:
        """args that are not a sequence are dropped from the record and counted, not raised."""
        with capture_spans() as spans:
            with Recorder("s1").call("m", role="r") as call:
                record = call.to_record(args=5, outcome_summary={"ok": True})  # type: ignore[arg-type]
        assert record.args == () and record.outcome_summary == {"ok": True}
        assert attrs_of(spans.calls()[0])[sc.INSTRUMENTATION_ERRORS] == 1

    def test_to_record_misuse_never_raises_with_telemetry_off(self) -> None:
        """With nothing configured, a bad speaker still gives a record and no exception."""
        with Recorder("s1", tracer_provider=trace.NoOpTracerProvider()).call("m", role="r") as call:
            assert call.to_record(speaker="system").speaker == "agent"


# --- delegations ---------------------------------------------------------------------------------


class TestDelegations:
    @pytest.mark.usefixtures("fresh_fault_log")
    def test_delegate_outside_a_call_is_a_top_level_call_with_a_fault(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        """recorder.delegate() with no call running: depth 0, no delegation attributes, one fault."""
        with capture_spans() as spans, caplog.at_level(logging.WARNING, logger=LOGGER):
            recorder = Recorder("s1")
            with recorder.delegate("helper", method="find"):
                pass
            with recorder.call("m", role="r", delegation_kind="agent_for"):
                pass
        for span in spans.calls():
            attrs = attrs_of(span)
            assert attrs[sc.CALL_DEPTH] == 0 and sc.CALL_PARENT_ID not in attrs
            assert not any(key.startswith("recurscope.delegation.") for key in attrs)
            assert attrs[sc.INSTRUMENTATION_ERRORS] == 1
        (message,) = warnings_about(caplog, "call.delegation_without_caller")
        assert "no caller" in message and "parent=" in message

    def test_delegate_outside_a_call_never_raises_with_telemetry_off(self) -> None:
        """The no-op path accepts the same misuse without raising."""
        recorder = Recorder("s1", tracer_provider=trace.NoOpTracerProvider())
        with recorder.delegate("helper", method="find") as child:
            assert child.depth == 0 and child.parent is None

    @pytest.mark.parametrize("kind", DELEGATION_KINDS)
    def test_known_kinds_are_recorded_as_given(self, kind: str) -> None:
        """Each known kind lands on the span unchanged, with no fault."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with recorder.call("plan", role="planner") as parent:
                with parent.delegate("helper", method="find", delegation_kind=kind):
                    pass
        attrs = attrs_of(spans.calls()[0])
        assert attrs[sc.DELEGATION_KIND] == kind
        assert sc.INSTRUMENTATION_ERRORS not in attrs

    @pytest.mark.parametrize("kind", ["agentfor", "Delegate", 7, ["x"]])
    def test_unknown_kind_is_recorded_as_delegate_with_a_fault(self, kind: Any) -> None:
        """An unknown kind is not raised: the span says 'delegate' and counts one fault."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with recorder.call("plan", role="planner"):
                with recorder.delegate("helper", method="find", delegation_kind=kind):
                    pass
        attrs = attrs_of(spans.calls()[0])
        assert attrs[sc.DELEGATION_KIND] == "delegate" and attrs[sc.CALL_DEPTH] == 1
        assert attrs[sc.INSTRUMENTATION_ERRORS] == 1


class TestDelegationKindName:
    def test_kind_is_a_deprecated_alias_of_delegation_kind(self) -> None:
        """delegate(kind=...) still records the kind, with a DeprecationWarning naming the new name."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with recorder.call("plan", role="planner") as parent:
                with pytest.warns(DeprecationWarning, match="delegation_kind"):
                    recorder.delegate("a", method="x", kind="agent_for").stop()
                with pytest.warns(DeprecationWarning, match="delegation_kind"):
                    parent.delegate("b", method="y", kind="agent_for").stop()
        for span in spans.calls()[:2]:
            assert attrs_of(span)[sc.DELEGATION_KIND] == "agent_for"
            assert sc.INSTRUMENTATION_ERRORS not in attrs_of(span)

    def test_delegation_kind_is_the_one_name_and_does_not_warn(self) -> None:
        """call(), start_call() and both delegate()s take delegation_kind=, without warnings."""
        for function in (Recorder.call, Recorder.start_call, Recorder.delegate):
            assert "delegation_kind" in inspect.signature(function).parameters
        with capture_spans() as spans, warnings.catch_warnings():
            warnings.simplefilter("error")
            recorder = Recorder("s1")
            with recorder.call("plan", role="planner") as parent:
                parent.delegate("a", method="x", delegation_kind="agent_for").stop()
                recorder.delegate("b", method="y", delegation_kind="managed_agent").stop()
        kinds = [attrs_of(span)[sc.DELEGATION_KIND] for span in spans.calls()[:2]]
        assert kinds == ["agent_for", "managed_agent"]

    def test_conflicting_names_keep_delegation_kind_and_count_a_fault(self) -> None:
        """Given both names with different values, delegation_kind wins and the span counts it."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            with recorder.call("plan", role="planner"):
                with pytest.warns(DeprecationWarning):
                    recorder.delegate(
                        "a", method="x", delegation_kind="agent_for", kind="managed_agent"
                    ).stop()
        attrs = attrs_of(spans.calls()[0])
        assert attrs[sc.DELEGATION_KIND] == "agent_for"
        assert attrs[sc.INSTRUMENTATION_ERRORS] == 1


# --- typed call parameters -------------------------------------------------------------------


@pytest.mark.parametrize("function", [Recorder.call, Recorder.delegate])
def test_call_options_are_explicit_typed_keywords(function: Any) -> None:
    """call() and delegate() name code=, args= and the rest: keyword-only, annotated, no **options."""
    parameters = inspect.signature(function).parameters
    start = inspect.signature(Recorder.start_call).parameters
    assert not any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    for name in ("code", "language", "call_id", "parent", "args", "kwargs", "history"):
        assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert parameters[name].annotation == start[name].annotation
        assert parameters[name].default == start[name].default


def test_call_keywords_behave_as_before() -> None:
    """code= is analysed and args= sized, as when they went through **options."""
    with capture_spans() as spans:
        with Recorder("s1").call("m", role="r", code="result = 1", args=[1, 2], call_id="c9"):
            pass
    attrs = attrs_of(spans.calls()[0])
    assert attrs[sc.CALL_ID] == "c9" and attrs[sc.CODE_ANALYSIS] == "ast"
    assert attrs[sc.CALL_ARGS_SIZE] == len("[1,2]") + len("{}")


# --- apply() takes the orientation from the plan -------------------------------------------


SYSTEM = {"role": "system", "content": "You are terse."}
MESSAGES = [
    {"role": "user", "content": "a" * 40},
    {"role": "assistant", "content": "b" * 40},
    {"role": "user", "content": "c" * 10},
]


class TestApplyOrientation:
    def test_apply_puts_the_plans_orientation_first(self) -> None:
        """plan.apply(messages) needs no orientation: the plan kept the one it was made with."""
        plan = plan_trim(MESSAGES, budget=80, orientation=[SYSTEM], counter=TokenCounter("bytes"))
        assert plan.orientation == (SYSTEM,) and plan.trimmed
        applied = plan.apply(MESSAGES)
        assert applied[0] == SYSTEM and applied[0] is not SYSTEM
        assert applied == plan.apply(MESSAGES, [SYSTEM]) == plan.apply(MESSAGES, [dict(SYSTEM)])

    def test_recorder_plans_keep_their_orientation(self) -> None:
        """Recorder.plan_trim returns a plan that applies its orientation by itself."""
        plan = Recorder("s1").plan_trim(MESSAGES, orientation=[SYSTEM], budget=10_000)
        assert plan.apply(MESSAGES) == [SYSTEM, *MESSAGES]

    @pytest.mark.usefixtures("fresh_fault_log")
    def test_a_different_orientation_is_used_and_reported_once(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        """A mismatching orientation is used as given and logged once as a fault, never raised."""
        plan = plan_trim(MESSAGES, budget=0, orientation=[SYSTEM])
        other = {"role": "system", "content": "Be verbose."}
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            assert plan.apply(MESSAGES, [other])[0] == other
            assert plan.apply(MESSAGES, ())[0] == MESSAGES[0]
        assert len(warnings_about(caplog, "trim.apply.orientation")) == 1

    def test_plans_compare_as_before(self) -> None:
        """The orientation is left out of equality and repr: equal decisions, equal plans."""
        counter = TokenCounter("bytes")
        first = plan_trim(MESSAGES, budget=0, orientation=[SYSTEM], counter=counter)
        again = plan_trim(MESSAGES, budget=0, orientation=[dict(SYSTEM)], counter=counter)
        assert first == again and "You are terse" not in repr(first)


# --- capture_spans() as OTLP JSON lines --------------------------------------------------------


def read_requests(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def span_names(requests: list[dict[str, Any]]) -> list[str]:
    return [
        span["name"]
        for request in requests
        for resource in request["resourceSpans"]
        for scope in resource["scopeSpans"]
        for span in scope["spans"]
    ]


class TestWriteJsonl:
    def test_captured_spans_are_written_as_the_file_exporter_writes_them(
        self, tmp_path: Path
    ) -> None:
        """write_jsonl appends ExportTraceServiceRequest lines with hex ids, one span each here."""
        with capture_spans(run_id="run-7") as spans:
            recorder = Recorder("s1")
            with recorder.call("m", role="r"):
                recorder.plan_trim(MESSAGES, budget=0)
        out = tmp_path / "nested" / "spans.jsonl"
        assert spans.write_jsonl(out) == 2
        (request,) = read_requests(out)
        resource = request["resourceSpans"][0]
        keys = {a["key"]: a["value"] for a in resource["resource"]["attributes"]}
        assert keys["service.instance.id"] == {"stringValue": "run-7"}
        scope = resource["scopeSpans"][0]
        assert scope["scope"]["name"] == sc.INSTRUMENTATION_SCOPE
        assert sorted(span_names([request])) == sorted([sc.SPAN_CALL, sc.SPAN_TRIM])
        assert all(len(span["traceId"]) == 32 for span in scope["spans"])

    def test_same_encoding_as_the_file_exporter(self, tmp_path: Path) -> None:
        """The line written matches what configure('file')'s exporter writes for the same spans."""
        with capture_spans() as spans, Recorder("s1").call("m", role="r", call_id="c1"):
            pass
        spans.write_jsonl(tmp_path / "captured.jsonl")
        exporter = FileSpanExporter(tmp_path / "exported.jsonl")
        exporter.export(list(spans))
        exporter.shutdown()
        captured = (tmp_path / "captured.jsonl").read_text()
        assert captured == (tmp_path / "exported.jsonl").read_text()

    def test_large_captures_are_split_into_batches_and_appended(self, tmp_path: Path) -> None:
        """Up to 512 spans a line, as the batch processor exports them; a second write appends."""
        with capture_spans() as spans:
            recorder = Recorder("s1")
            for _ in range(600):
                recorder.call("m", role="r").stop()
        out = tmp_path / "spans.jsonl"
        spans.write_jsonl(out)
        spans.write_jsonl(out)
        requests = read_requests(out)
        assert len(requests) == 4 and len(span_names(requests)) == 1200


# --- where the file exporter writes ---------------------------------------------------------------


class TestSpansFile:
    def test_default_spans_file_is_relative_to_the_working_directory(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """configure('file') without path= appends to data/spans.jsonl under the current directory."""
        monkeypatch.chdir(tmp_path)
        monkeypatch.delenv("RECURSCOPE_SPANS_FILE", raising=False)
        telemetry = configure("file")
        telemetry.shutdown()
        assert telemetry.path == Path(config.DEFAULT_SPANS_FILE) == Path("data/spans.jsonl")
        assert (tmp_path / "data" / "spans.jsonl").exists()

    def test_recurscope_spans_file_sets_the_default(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """$RECURSCOPE_SPANS_FILE replaces the default; path= still wins."""
        monkeypatch.setenv("RECURSCOPE_SPANS_FILE", str(tmp_path / "env" / "spans.jsonl"))
        from_env = configure("file")
        given = configure("file", path=tmp_path / "given.jsonl")
        from_env.shutdown()
        given.shutdown()
        assert from_env.path == tmp_path / "env" / "spans.jsonl"
        assert given.path == tmp_path / "given.jsonl"

    def test_docs_name_the_default_and_the_variable(self) -> None:
        """docs/instrumentation.md states the default spans file and RECURSCOPE_SPANS_FILE."""
        text = (ROOT / "docs" / "instrumentation.md").read_text()
        assert f"`{config.DEFAULT_SPANS_FILE}`" in text and "`$RECURSCOPE_SPANS_FILE`" in text
