"""The recurgent_jsonl format: mapping, ids, delegation trees, sessions, content, bad entries."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recurscope.instrumentation.analysis import analyze_code
from recurscope.pipeline import Store, ingest
from recurscope.pipeline.decode.formats import FormatOptions, ReadContext, detect_format, get_format
from recurscope.pipeline.decode.formats.recurgent_jsonl import (
    SCOPE_NAME,
    session_for_source,
    span_id_for,
    trace_id_for,
)
from recurscope.pipeline.records import DEFAULT_LIMITS, Reason, Rejection, SpanRow

FIXTURES = Path(__file__).parent / "fixtures" / "recurgent"
REFERENCE_LOGS = Path(__file__).resolve().parents[2] / "shared" / "reference" / "recurgent" / "logs"
T1 = "a1b2c3d4e5f6a7b8c9d0e1f2"
T2 = "ffeeddccbbaa998877665544"


def read(
    data: bytes, *, source: str = "/logs/run.jsonl", options: FormatOptions | None = None
) -> list[SpanRow | Rejection]:
    """Every row and rejection the format yields for ``data``."""
    ctx = ReadContext(source=source, limits=DEFAULT_LIMITS, options=options or FormatOptions())
    stream = io.BufferedReader(io.BytesIO(data))
    return [
        item
        for item in get_format("recurgent_jsonl").read(stream, ctx)
        if isinstance(item, SpanRow | Rejection)
    ]


def rows_of(items: list[SpanRow | Rejection]) -> list[SpanRow]:
    return [item for item in items if isinstance(item, SpanRow)]


def by_call(rows: list[SpanRow]) -> dict[str, SpanRow]:
    return {row.attributes["recurscope.call.id"]: row for row in rows}


def entry(**fields: Any) -> dict[str, Any]:
    """A minimal valid entry; keyword arguments override fields."""
    base: dict[str, Any] = {
        "timestamp": "2026-03-02T09:00:00.000Z",
        "runtime": "ruby",
        "role": "calculator",
        "method": "add",
        "trace_id": "0badc0ffee0badc0ffee0bad",
        "call_id": "2000000000000001",
        "parent_call_id": None,
        "depth": 0,
        "duration_ms": 12.5,
        "generation_attempt": 1,
    }
    base.update(fields)
    return base


def jsonl(*entries: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(e).encode() + b"\n" for e in entries)


@pytest.fixture
def delegation() -> list[SpanRow]:
    items = read((FIXTURES / "delegation.jsonl").read_bytes())
    assert all(isinstance(item, SpanRow) for item in items)
    return rows_of(items)


class TestDetection:
    def test_sniffed_from_content(self) -> None:
        """A Recurgent log is detected by its fields, ahead of the generic OTLP JSON guess."""
        head = (FIXTURES / "delegation.jsonl").read_bytes()[:8192]
        fmt = detect_format(head, "calls.jsonl")
        assert fmt is not None and fmt.name == "recurgent_jsonl"

    def test_otlp_json_is_not_taken(self) -> None:
        """An OTLP request never sniffs as a Recurgent log."""
        fmt = detect_format(b'{"resourceSpans": [{"role": 1, "method": 2}]}', "x.jsonl")
        assert fmt is not None and fmt.name == "otlp-json"


class TestMapping:
    def test_call_attributes(self, delegation: list[SpanRow]) -> None:
        """An entry becomes a recurscope.call span carrying the conventions' names."""
        row = by_call(delegation)["1000000000000006"]
        a = row.attributes
        assert row.name == "recurscope.call" and row.kind == "Internal"
        assert a["gen_ai.operation.name"] == "invoke_agent"
        assert a["gen_ai.agent.name"] == a["recurscope.call.role"] == "planner"
        assert a["recurscope.call.method"] == "history"
        assert a["recurscope.call.depth"] == "0"
        assert a["gen_ai.request.model"] == "claude-test"
        assert a["recurscope.prompt.version"] == "depth-aware.v3"
        assert a["recurscope.history.size"] == "5"
        assert a["recurscope.call.outcome_status"] == "ok"
        assert a["recurscope.call.attempts"] == "2"
        assert a["recurscope.source.format"] == "recurgent_jsonl"
        assert a["recurscope.source.trace_id"] == T1
        assert a["recurscope.source.call_id"] == "1000000000000006"
        assert a["recurgent.guardrail_recovery_attempts"] == "1"
        assert row.scope_name == SCOPE_NAME and row.service_name == "recurgent"
        assert row.resource_attributes["process.runtime.name"] == "ruby"

    def test_times_end_at_the_log_timestamp(self, delegation: list[SpanRow]) -> None:
        """The entry is logged when the call ends: end = timestamp, start = end - duration_ms."""
        row = by_call(delegation)["1000000000000006"]
        end = 1772359230_000_000_000  # 2026-03-01T10:00:30Z
        assert row.end_time_unix_nano == end
        assert row.end_time_unix_nano - row.start_time_unix_nano == 2_500_500_000

    def test_ours_and_theirs_side_by_side(self, delegation: list[SpanRow]) -> None:
        """Our static analysis of the code is stored beside the runtime's own detector."""
        a = by_call(delegation)["1000000000000006"].attributes
        code = (
            "history = context[:conversation_history] || []\n"
            "recent = history.last(3).map { |r| r[:method_name] }\nresult = recent\n"
        )
        ours = analyze_code(code, "ruby")
        assert a["recurscope.history.accessed"] == "true"
        assert a["recurscope.history.detection"] == "static"
        assert json.loads(a["recurscope.history.ops"]) == sorted(ours.ops)
        assert a["recurscope.history.contextview_shaped"] == "false"
        assert a["recurscope.code.fingerprint"] == ours.fingerprint
        assert a["recurscope.code.language"] == "ruby"
        assert a["recurscope.code.analysis"] == "tokens"
        assert a["recurscope.code.hash"] == hashlib.sha256(code.encode()).hexdigest()[:16]
        assert a["recurscope.code.size"] == str(len(code.encode()))
        # Fields read and the literal tail bound (last(3)): what the logs can give of depth.
        assert json.loads(a["recurscope.history.fields_read"]) == ["method_name"]
        assert a["recurscope.history.static_depth"] == "3"
        assert a["recurscope.history.reported_accessed"] == "true"
        assert json.loads(a["recurscope.history.reported_ops"]) == ["map", "slice"]

    def test_no_code_no_access_evidence(self, delegation: list[SpanRow]) -> None:
        """Without code there is nothing to analyse: no access attributes are invented."""
        a = by_call(delegation)["1000000000000005"].attributes
        assert "recurscope.history.accessed" not in a
        assert "recurscope.code.hash" not in a

    def test_error_outcome_sets_status(self, delegation: list[SpanRow]) -> None:
        """outcome_status error -> span status Error with the error type (never the message)."""
        row = by_call(delegation)["1000000000000002"]
        assert row.status_code == "Error" and row.status_message == "execution"
        assert row.attributes["recurscope.call.outcome_status"] == "error"
        assert "undefined method" not in json.dumps(row.as_json_dict())

    def test_attempt_failures_become_events(self, delegation: list[SpanRow]) -> None:
        """Each failed attempt is an event with its id, stage and error class."""
        (event,) = by_call(delegation)["1000000000000006"].events
        assert event.name == "recurgent.attempt_failure"
        assert event.time_unix_nano == 1772359229_000_000_000
        assert event.attributes["recurgent.attempt_id"] == "1"
        assert event.attributes["exception.type"] == "Agent::ToolRegistryViolationError"
        assert "exception.message" not in event.attributes


class TestIds:
    def test_documented_hashes(self, delegation: list[SpanRow]) -> None:
        """TraceId/SpanId are the documented sha256 prefixes of the Recurgent ids."""
        row = by_call(delegation)["1000000000000001"]
        assert row.trace_id == hashlib.sha256(f"recurgent:trace:{T1}".encode()).digest()[:16].hex()
        assert (
            row.span_id
            == hashlib.sha256(f"recurgent:call:{T1}:1000000000000001".encode()).digest()[:8].hex()
        )
        assert row.trace_id == trace_id_for(T1)
        assert row.parent_span_id == ""

    def test_ids_are_stable_across_reads(self) -> None:
        """Reading the same log twice gives the same ids (re-ingest is idempotent)."""
        data = (FIXTURES / "delegation.jsonl").read_bytes()
        first = {(r.trace_id, r.span_id) for r in rows_of(read(data))}
        assert first == {(r.trace_id, r.span_id) for r in rows_of(read(data))}

    def test_missing_ids_derive_from_source_and_line(self) -> None:
        """Entries without ids get one trace per file and one span per line."""
        data = jsonl(entry(trace_id=None, call_id=None), entry(trace_id=None, call_id=None))
        a, b = rows_of(read(data, source="/logs/x.jsonl"))
        assert a.trace_id == b.trace_id == trace_id_for("file:/logs/x.jsonl")
        assert a.span_id == span_id_for("file:/logs/x.jsonl", "line:1")
        assert b.span_id == span_id_for("file:/logs/x.jsonl", "line:2")
        assert a.attributes["recurscope.call.id"] == "line:1"
        assert "recurscope.source.trace_id" not in a.attributes


class TestDelegationTree:
    def test_children_point_at_their_parents(self, delegation: list[SpanRow]) -> None:
        """ParentSpanId is the parent's SpanId even though children are logged first."""
        calls = by_call(delegation)
        assert calls["1000000000000002"].parent_span_id == calls["1000000000000001"].span_id
        assert calls["1000000000000003"].parent_span_id == calls["1000000000000002"].span_id
        assert calls["1000000000000004"].parent_span_id == calls["1000000000000001"].span_id
        tree = ("1000000000000001", "1000000000000002", "1000000000000003", "1000000000000004")
        assert {calls[c].trace_id for c in tree} == {trace_id_for(T1)}

    def test_same_role_along_the_tree(self, delegation: list[SpanRow]) -> None:
        """same_role is true when the target role is the caller's or an ancestor's."""
        calls = by_call(delegation)
        grandchild = calls["1000000000000003"].attributes  # planner under researcher under planner
        assert grandchild["recurscope.delegation.same_role"] == "true"
        assert grandchild["recurscope.delegation.caller_role"] == "researcher"
        assert calls["1000000000000002"].attributes["recurscope.delegation.same_role"] == "false"
        assert (
            calls["1000000000000002"].attributes["recurscope.delegation.caller_role"] == "planner"
        )
        assert "recurscope.delegation.kind" not in calls["1000000000000001"].attributes

    def test_agent_for_is_a_fresh_recurgent_trace(self, delegation: list[SpanRow]) -> None:
        """A child with its own Recurgent trace id was made by Agent.for: kind agent_for,
        kept in its root's OTel trace, original id preserved."""
        a = by_call(delegation)["1000000000000004"]
        assert a.attributes["recurscope.delegation.kind"] == "agent_for"
        assert a.attributes["recurscope.source.trace_id"] == T2
        assert a.trace_id == trace_id_for(T1)
        assert a.span_id == span_id_for(T2, "1000000000000004")
        assert (
            by_call(delegation)["1000000000000002"].attributes["recurscope.delegation.kind"]
            == "delegate"
        )

    def test_orphan_keeps_computable_linkage(self, delegation: list[SpanRow]) -> None:
        """A child whose parent is not in the file is still emitted, without caller facts."""
        a = by_call(delegation)["1000000000000005"]
        assert a.parent_span_id == span_id_for(T1, "deadbeefdeadbeef")
        assert a.attributes["recurscope.delegation.kind"] == "delegate"
        assert "recurscope.delegation.caller_role" not in a.attributes

    def test_parent_before_child_and_depth_from_tree(self) -> None:
        """Order does not matter, and a missing depth is the parent's depth + 1."""
        data = jsonl(
            entry(call_id="p0", depth=None),
            entry(call_id="c1", parent_call_id="p0", depth=None, role="helper"),
            entry(call_id="c2", parent_call_id="c1", depth=None, role="calculator"),
        )
        calls = by_call(rows_of(read(data)))
        assert [calls[c].attributes["recurscope.call.depth"] for c in ("p0", "c1", "c2")] == [
            "0",
            "1",
            "2",
        ]
        assert calls["c2"].attributes["recurscope.delegation.same_role"] == "true"

    def test_cycles_do_not_hang(self) -> None:
        """Entries naming each other as parents are emitted once each, as orphans first."""
        data = jsonl(entry(call_id="a", parent_call_id="b"), entry(call_id="b", parent_call_id="a"))
        assert sorted(by_call(rows_of(read(data)))) == ["a", "b"]


class TestSession:
    def test_one_session_per_file_by_default(self, delegation: list[SpanRow]) -> None:
        """Without a session field, the session is the file stem + a hash of its path."""
        expected = session_for_source("/logs/run.jsonl")
        assert expected.startswith("run-") and len(expected) == len("run-") + 8
        assert {r.attributes["gen_ai.conversation.id"] for r in delegation} == {expected}

    def test_session_field_wins_over_the_file(self) -> None:
        """A session_id field (when a runtime writes one) is the session."""
        (row,) = rows_of(read(jsonl(entry(session_id="conv-9"))))
        assert row.attributes["gen_ai.conversation.id"] == "conv-9"

    def test_override_wins_over_everything(self) -> None:
        """--session replaces whatever the log says."""
        items = read(jsonl(entry(session_id="conv-9")), options=FormatOptions(session="mine"))
        assert rows_of(items)[0].attributes["gen_ai.conversation.id"] == "mine"

    def test_run_is_derived_from_the_file(self, delegation: list[SpanRow]) -> None:
        """service.instance.id is one run id per source file."""
        runs = {r.resource_attributes["service.instance.id"] for r in delegation}
        assert len(runs) == 1 and runs.pop().startswith("recurgent-")


class TestContent:
    def test_dropped_by_default(self) -> None:
        """Args, kwargs, code, outcome and prompts never reach a span without capture."""
        text = json.dumps(
            [r.as_json_dict() for r in rows_of(read((FIXTURES / "delegation.jsonl").read_bytes()))]
        )
        for secret in ("SYSTEM PROMPT TEXT", "USER PROMPT TEXT", "conversation_history", '"cm"'):
            assert secret not in text
        row = by_call(rows_of(read((FIXTURES / "delegation.jsonl").read_bytes())))[
            "1000000000000006"
        ]
        assert row.attributes["recurscope.call.args_size"] == str(
            len("[1,2]") + len('{"unit":"cm"}')
        )

    def test_captured_on_request(self) -> None:
        """--capture-content keeps args, kwargs, code, the outcome and the prompts."""
        items = read(
            (FIXTURES / "delegation.jsonl").read_bytes(),
            options=FormatOptions(capture_content=True),
        )
        row = by_call(rows_of(items))["1000000000000006"]
        a = row.attributes
        assert a["recurscope.call.args"] == "[1,2]"
        assert a["recurscope.call.kwargs"] == '{"unit":"cm"}'
        assert "conversation_history" in a["recurscope.code.content"]
        assert json.loads(a["recurscope.call.outcome_summary"]) == {
            "ok": True,
            "value_class": "Array",
        }
        names = {e.name for e in row.events}
        assert {"gen_ai.system.message", "gen_ai.user.message"} <= names
        (failure,) = [e for e in row.events if e.name == "recurgent.attempt_failure"]
        assert failure.attributes["exception.message"] == "state key diverged"


class TestMalformed:
    def test_every_bad_entry_is_quarantined_with_its_reason(self) -> None:
        """Each malformed line is one rejection with a specific reason; good lines land."""
        items = read((FIXTURES / "malformed.jsonl").read_bytes())
        rejections = [i for i in items if isinstance(i, Rejection)]
        assert [r.reason for r in rejections] == [
            Reason.TRUNCATED_JSON,
            Reason.INVALID_JSON,
            Reason.WRONG_TYPE,
            Reason.WRONG_TYPE,
            Reason.INVALID_VALUE,
            Reason.NEGATIVE_DURATION,
            Reason.WRONG_TYPE,
            Reason.INVALID_VALUE,
            Reason.MISSING_TIMESTAMP,
            Reason.WRONG_TYPE,
        ]
        assert [r.position.line for r in rejections] == list(range(1, 11))
        assert "role" in rejections[3].detail
        assert rejections[3].span_id == span_id_for("0badc0ffee0badc0ffee0bad", "2000000000000002")
        assert len(rows_of(items)) == 1

    def test_oversized_line(self) -> None:
        """A line over max_record_bytes is one record_too_large rejection; the rest lands."""
        from recurscope.pipeline.records import DecodeLimits

        big = jsonl(entry(call_id="big", code="x" * 5000), entry(call_id="small"))
        ctx = ReadContext(source="s", limits=DecodeLimits(max_record_bytes=1000))
        stream = io.BufferedReader(io.BytesIO(big))
        items = list(get_format("recurgent_jsonl").read(stream, ctx))
        assert [type(i).__name__ for i in items] == ["Rejection", "SpanRow"]
        first = items[0]
        assert isinstance(first, Rejection) and first.reason == Reason.RECORD_TOO_LARGE

    def test_a_json_array_document(self) -> None:
        """The stream schema's array form (jq -s .) is read entry by entry."""
        data = json.dumps([entry(call_id="a"), entry(call_id="b", parent_call_id="a")]).encode()
        calls = by_call(rows_of(read(data)))
        assert calls["b"].parent_span_id == calls["a"].span_id


class TestIngest:
    def test_end_to_end_with_options(self, tmp_path: Path) -> None:
        """ingest detects the format, honours --session, and counts reconcile."""
        log = tmp_path / "calls.jsonl"
        log.write_bytes((FIXTURES / "delegation.jsonl").read_bytes())
        bad = tmp_path / "bad.jsonl"
        bad.write_bytes((FIXTURES / "malformed.jsonl").read_bytes())
        with Store.open(tmp_path / "s.duckdb") as store:
            report = ingest([log, bad], store, progress=False, options=FormatOptions(session="s-1"))
            assert [s.format for s in report.sources] == ["recurgent_jsonl"] * 2
            assert report.spans_accepted == 7 and report.rows_quarantined == 10
            assert store.query(
                "SELECT DISTINCT SpanAttributes['gen_ai.conversation.id'] FROM otel_traces"
            ) == [("s-1",)]
            again = ingest([log], store, progress=False)
            assert again.sources[0].status == "unchanged"


def _reference_logs() -> Iterator[Path]:
    yield from sorted(REFERENCE_LOGS.glob("*/*.jsonl"))


@pytest.mark.skipif(not REFERENCE_LOGS.is_dir(), reason="real Recurgent logs not available")
class TestRealLogs:
    def test_every_entry_becomes_a_span(self) -> None:
        """All real logs: one span per non-blank line, nothing quarantined."""
        for path in _reference_logs():
            data = path.read_bytes()
            items = read(data, source=str(path))
            assert not [i for i in items if isinstance(i, Rejection)], path
            assert len(rows_of(items)) == len(
                [line for line in data.splitlines() if line.strip()]
            ), path

    def test_delegation_tree(self) -> None:
        """The assistant log: each ask's fetcher and parser are children of that ask."""
        path = REFERENCE_LOGS / "2026-02-15" / "assistant-google-yahoo.jsonl"
        entries = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        calls = by_call(rows_of(read(path.read_bytes(), source=str(path))))
        for e in entries:
            row = calls[e["call_id"]]
            if e["parent_call_id"] is None:
                assert row.parent_span_id == ""
                continue
            parent = calls[e["parent_call_id"]]
            assert row.parent_span_id == parent.span_id and row.trace_id == parent.trace_id
            assert row.attributes["recurscope.delegation.kind"] == "delegate"
            assert (
                row.attributes["recurscope.delegation.caller_role"]
                == parent.attributes["recurscope.call.role"]
            )
            assert row.attributes["recurscope.delegation.same_role"] == "false"

    def test_our_detection_differs_from_theirs_where_expected(self) -> None:
        """Their regex counts `.reject` on an args string as a history filter (phase 1) and
        misses `next unless` filtering (phase 7); ours does not."""
        phase1 = REFERENCE_LOGS / "adr-0027" / "phase-1-calculator.jsonl"
        phase7 = REFERENCE_LOGS / "adr-0027" / "phase-7-calculator.jsonl"
        h1 = next(
            r
            for r in rows_of(read(phase1.read_bytes()))
            if r.attributes["recurscope.call.method"] == "history"
        )
        h7 = next(
            r
            for r in rows_of(read(phase7.read_bytes()))
            if r.attributes["recurscope.call.method"] == "history"
        )
        assert "filter" in json.loads(h1.attributes["recurscope.history.reported_ops"])
        assert "filter" not in json.loads(h1.attributes["recurscope.history.ops"])
        assert json.loads(h7.attributes["recurscope.history.reported_ops"]) == ["count"]
        assert "filter" in json.loads(h7.attributes["recurscope.history.ops"])
        for h in (h1, h7):
            assert h.attributes["recurscope.history.accessed"] == "true"
            assert h.attributes["recurscope.history.reported_accessed"] == "true"

    def test_all_logs_ingest(self, tmp_path: Path) -> None:
        """Every real log ingests into the store with one session per file."""
        with Store.open(tmp_path / "s.duckdb") as store:
            report = ingest([REFERENCE_LOGS], store, progress=False)
            assert report.rows_quarantined == 0 and report.spans_accepted == 80
            sessions = store.query(
                "SELECT count(DISTINCT SpanAttributes['gen_ai.conversation.id']) FROM otel_traces"
            )
            assert sessions == [(len(list(_reference_logs())),)]
