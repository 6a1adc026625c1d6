"""`recurscope replay`: conversations read from every input format, replayed turn by turn
through each trim strategy with and without compaction, as replayed spans that ingest,
compare, validate and show in the demo (docs/replay.md)."""

from __future__ import annotations

import gzip
import json
import threading
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opentelemetry.exporter.otlp.json.file import FileSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from recurscope.cli import main
from recurscope.instrumentation import TokenCounter
from recurscope.instrumentation import semconv as sc
from recurscope.pipeline.replay.conversations import (
    Conversation,
    ReplayError,
    parse_conversations,
    read_conversations,
)
from recurscope.pipeline.replay.goal_detect import HeuristicDetector, Switch
from recurscope.pipeline.replay.replay import (
    STRATEGIES,
    Replayer,
    goal_timeline,
    load_callable,
    replay,
    session_id,
)
from recurscope.pipeline.replay.summarize import MAX_CHARS, extractive_summary

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "replay-samples"
LONG = " ".join(["detail"] * 60)  # ~60 tokens: a few turns overflow a 300-token budget


# --------------------------------------------------------------------------
# Fixtures and helpers


@pytest.fixture()
def span_exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture()
def replay_provider(span_exporter: InMemorySpanExporter) -> Iterator[TracerProvider]:
    """An SDK provider whose resource marks spans replayed, exporting into memory."""
    provider = TracerProvider(
        resource=Resource.create({"service.instance.id": "test", sc.ORIGIN: "replayed"})
    )
    provider.add_span_processor(SimpleSpanProcessor(span_exporter))
    yield provider
    provider.shutdown()


def chat(cid: str, *turns: tuple[str, str], need: Mapping[int, str] | None = None) -> str:
    """One OpenAI JSON line: ``turns`` are (role, text); ``need`` annotates message indices."""
    messages: list[dict[str, Any]] = []
    for index, (role, text) in enumerate(turns):
        message: dict[str, Any] = {"role": role, "content": text}
        if need and index in need:
            message["need"] = need[index]
        messages.append(message)
    return json.dumps({"id": cid, "messages": messages})


def switching_conversation(cid: str = "trip") -> str:
    """A conversation that switches goals, returns and re-emits its need (annotated, so no
    heuristic decides), long enough to trim at 300 tokens."""
    return chat(
        cid,
        ("system", "Be brief."),
        ("user", f"Plan a trip to Lisbon in April. {LONG}"),
        ("assistant", f"Here is a Lisbon plan. {LONG}"),
        ("user", f"Now write release notes for version 2.4. {LONG}"),
        ("assistant", f"Release notes for 2.4. {LONG}"),
        ("user", f"Back to the Lisbon trip: which hotels? {LONG}"),
        ("assistant", f"Hotels in Lisbon. {LONG}"),
        ("user", f"And restaurants there? {LONG}"),
        need={
            1: "Plan a trip to Lisbon",
            3: "Write release notes",
            5: "Plan a trip to Lisbon",
            7: "Plan a trip to Lisbon",
        },
    )


def read(text: str | bytes, name: str = "chats.jsonl", **kwargs: Any) -> tuple[Any, ...]:
    data = text.encode() if isinstance(text, str) else text
    return tuple(parse_conversations(data, source=name, **kwargs))


def attributes_by_name(spans: Sequence[ReadableSpan], name: str) -> list[Mapping[str, Any]]:
    return [dict(span.attributes or {}) for span in spans if span.name == name]


def write_genai_spans(path: Path) -> None:
    """Recorded GenAI calls as an OTel SDK writes them, out of time order on disk."""

    def message(role: str, text: str) -> dict[str, Any]:
        return {"role": role, "parts": [{"type": "text", "content": text}]}

    provider = TracerProvider(resource=Resource.create({"service.name": "chatbot"}))
    provider.add_span_processor(SimpleSpanProcessor(FileSpanExporter(path)))
    tracer = provider.get_tracer("genai-test")
    base = 1_800_000_000_000_000_000
    history = [message("user", "first question")]
    calls = []
    for turn, question in enumerate(["second question", "third question"], start=0):
        output = [{**message("assistant", f"answer {turn}"), "finish_reason": "stop"}]
        calls.append((base + turn * 1000, list(history), output))
        history += [message("assistant", f"answer {turn}"), message("user", question)]
    calls.append((base + 5000, list(history), [message("assistant", "answer 2")]))
    for start, given_messages, output in reversed(calls):  # written newest first
        span = tracer.start_span("chat demo-model", start_time=start)
        span.set_attribute("gen_ai.conversation.id", "g1")
        span.set_attribute("gen_ai.input.messages", json.dumps(given_messages))
        span.set_attribute("gen_ai.output.messages", json.dumps(output))
        if start == base:
            span.set_attribute(
                "gen_ai.system_instructions",
                json.dumps([{"type": "text", "content": "You are terse."}]),
            )
        span.end(end_time=start + 500)
    # Messages carried by an event (content capture on event attributes), no conversation id.
    span = tracer.start_span("chat demo-model", start_time=base + 9000)
    span.add_event(
        "gen_ai.client.inference.operation.details",
        {
            "gen_ai.input.messages": json.dumps(
                [
                    message("user", "look at this"),
                    {
                        "role": "user",
                        "parts": [{"type": "blob", "modality": "image", "content": "AA=="}],
                    },
                    {"role": "narrator", "parts": [{"type": "text", "content": "x"}]},
                ]
            ),
            "gen_ai.output.messages": json.dumps([message("assistant", "a picture")]),
        },
    )
    span.end(end_time=base + 9500)
    provider.shutdown()


def strip_variable(line: str) -> list[Any]:
    """Spans of an OTLP JSON line without ids, times and the run (what differs between runs)."""
    out = []
    for resource in json.loads(line)["resourceSpans"]:
        resource_attrs = {
            a["key"]: a["value"]
            for a in resource["resource"]["attributes"]
            if a["key"] != "service.instance.id"
        }
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                attrs = {a["key"]: a["value"] for a in span["attributes"] if a["key"] != sc.RUN_ID}
                out.append((resource_attrs, span["name"], attrs))
    return out


# --------------------------------------------------------------------------
# Inputs


class TestInputs:
    def test_an_openai_message_array_is_one_conversation_named_after_the_file(self) -> None:
        """A JSON array of messages is one conversation; leading system messages are its orientation."""
        text = json.dumps(
            [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "hello"},
            ]
        )
        conversations, problems, fmt = read(text, "support.json")
        assert fmt == "openai" and problems == []
        (conversation,) = conversations
        assert conversation.id == "support"
        assert [m["role"] for m in conversation.orientation] == ["system"]
        assert conversation.messages == (
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello"},
        )

    def test_openai_json_lines_give_one_conversation_per_line(self) -> None:
        """JSON lines of {"id", "messages"} are read line by line, ids from the id field."""
        lines = "\n".join(
            [chat("c1", ("user", "a"), ("assistant", "b")), chat("c2", ("user", "c"))]
        )
        conversations, problems, fmt = read(lines)
        assert fmt == "openai" and not problems
        assert [c.id for c in conversations] == ["c1", "c2"]
        assert conversations[1].user_turns == (0,)

    def test_sharegpt_maps_from_to_roles_as_an_array_and_as_lines(self) -> None:
        """human/user, gpt/assistant/chatgpt/bard, system and tool/function map to the four roles."""
        record = {
            "id": "s1",
            "conversations": [
                {"from": "system", "value": "sys"},
                {"from": "human", "value": "q1"},
                {"from": "gpt", "value": "a1"},
                {"from": "User", "value": "q2"},
                {"from": "chatgpt", "value": "a2"},
                {"from": "function", "value": "result"},
                {"from": "bard", "value": "a3"},
                {"from": "tool", "value": "result 2"},
                {"from": "assistant", "value": "a4"},
            ],
        }
        for data, fmt_name in (
            (json.dumps([record]), "s.json"),
            (json.dumps(record) + "\n", "s.jsonl"),
        ):
            conversations, problems, fmt = read(data, fmt_name)
            assert fmt == "sharegpt" and not problems
            (conversation,) = conversations
            assert conversation.orientation == ({"role": "system", "content": "sys"},)
            roles = [m["role"] for m in conversation.messages]
            assert roles == [
                "user",
                "assistant",
                "user",
                "assistant",
                "tool",
                "assistant",
                "tool",
                "assistant",
            ]

    def test_otlp_spans_give_one_conversation_per_conversation_id_in_time_order(
        self, tmp_path: Path
    ) -> None:
        """Recorded GenAI calls merge into a transcript per gen_ai.conversation.id, oldest call
        first; spans without one form a conversation per trace; events carry messages too."""
        path = tmp_path / "spans.jsonl"
        write_genai_spans(path)
        result = read_conversations([path])
        assert result.formats == {str(path): "otlp-json"} and not result.failed
        first, second = result.conversations
        assert first.id == "g1"
        assert first.orientation == ({"role": "system", "content": "You are terse."},)
        assert [m["content"] for m in first.messages] == [
            "first question", "answer 0", "second question", "answer 1", "third question", "answer 2",
        ]  # fmt: skip
        assert second.id.startswith("trace-")
        assert [m["content"] for m in second.messages] == ["look at this", "a picture"]
        texts = [str(p) for p in result.problems]
        assert f'conversation "{second.id}", message 1: non-text parts left out: "blob"' in texts
        assert any(
            t.startswith(f'conversation "{second.id}", message 2: unknown role "narrator"')
            for t in texts
        )

    def test_gzip_inputs_are_read(self, tmp_path: Path) -> None:
        """A gzip file is decompressed before its format is detected."""
        path = tmp_path / "chats.jsonl.gz"
        path.write_bytes(gzip.compress(chat("z1", ("user", "hi")).encode()))
        assert [c.id for c in read_conversations([path]).conversations] == ["z1"]

    def test_text_parts_are_joined_and_tool_calls_kept(self) -> None:
        """Multi-part content keeps its text parts, joined by a line break; tool calls stay sized."""
        line = json.dumps(
            {
                "id": "p",
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "one"}, "two", {"type": "text", "text": "three"}]},
                    {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": {"x": 1}}}]},
                    {"role": "tool", "content": "42", "tool_call_id": "1"},
                ],
            }
        )  # fmt: skip
        ((conversation,), problems, _) = read(line)
        assert not problems
        user, assistant, tool = conversation.messages
        assert user["content"] == "one\ntwo\nthree"
        assert assistant["tool_calls"][0]["function"] == {"name": "f", "arguments": '{"x": 1}'}
        assert TokenCounter().message_size(assistant) > 0
        assert tool == {"role": "tool", "content": "42"}

    def test_a_need_annotation_counts_on_user_messages_only(self) -> None:
        """`need` on a user message is kept; elsewhere, or not text, it is ignored and said so."""
        line = json.dumps(
            {
                "id": "n",
                "messages": [
                    {"role": "user", "content": "a", "need": "Goal A"},
                    {"role": "assistant", "content": "b", "need": "nope"},
                    {"role": "user", "content": "c", "need": 7},
                    {"role": "user", "content": "d", "need": "  "},
                ],
            }
        )
        ((conversation,), problems, _) = read(line)
        assert dict(conversation.needs) == {0: "Goal A"}
        assert [str(p) for p in problems] == [
            'conversation "n", message 1: a need on a assistant message is ignored',
            'conversation "n", message 2: need is a number, not text: ignored',
            'conversation "n", message 3: need is blank: ignored',
        ]

    def test_bad_messages_name_the_conversation_and_index_and_the_rest_is_kept(self) -> None:
        """Unknown roles, missing content and non-text parts are reported by conversation and
        message index; the message (or part) is left out, everything else stays."""
        lines = "\n".join(
            [
                json.dumps(
                    {
                        "id": "c7",
                        "messages": [
                            {"role": "user", "content": "q1"},
                            {"role": "assistant", "content": "a1"},
                            {"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {"url": "x"}}]},
                            {"role": "narrator", "content": "once upon a time"},
                            {"role": "assistant"},
                            {"role": "assistant", "content": {"text": "?"}},
                            "not a message",
                            {"role": "user", "content": "q2"},
                        ],
                    }
                ),
                "{not json",
                chat("c8", ("user", "fine"), ("assistant", "ok")),
            ]
        )  # fmt: skip
        conversations, problems, _ = read(lines)
        assert [str(p) for p in problems] == [
            'conversation "c7", message 2: non-text parts left out: "image_url"',
            'conversation "c7", message 3: unknown role "narrator" (expected user, assistant, '
            "system, tool): message left out",
            'conversation "c7", message 4: missing content: message left out',
            'conversation "c7", message 5: content is an object, not text or parts: left out',
            'conversation "c7", message 6: a message must be an object, not a string',
            "chats.jsonl, line 2: not JSON (Expecting property name enclosed in double quotes): "
            "line skipped",
        ]
        c7, c8 = conversations
        assert [m["content"] for m in c7.messages] == ["q1", "a1", "see", "q2"]
        assert c7.message_numbers == (0, 1, 2, 7)
        assert c8.id == "c8"

    def test_a_forced_format_reads_what_it_names(self) -> None:
        """--input-format overrides detection; a record that does not fit is a problem, not a crash."""
        line = chat("c1", ("user", "hi"))
        conversations, problems, fmt = read(line, input_format="sharegpt")
        assert fmt == "sharegpt" and conversations == []
        assert [str(p) for p in problems] == [
            'conversation "c1": no "conversations" array: skipped'
        ]
        with pytest.raises(ReplayError, match="unknown input format"):
            read(line, input_format="csv")
        with pytest.raises(ReplayError, match="not a recognized conversation format"):
            read('{"hello": 1}\n')

    def test_repeated_ids_are_made_unique_and_unreadable_files_listed(self, tmp_path: Path) -> None:
        """Two conversations with one id both replay (the second as id#2); a file that cannot be
        read is listed in failed while the others are read."""
        (tmp_path / "a.jsonl").write_text(chat("same", ("user", "a")) + "\n")
        (tmp_path / "b.jsonl").write_text(chat("same", ("user", "b")) + "\n")
        (tmp_path / "c.json").write_text("not json at all")
        result = read_conversations([tmp_path, tmp_path / "missing.jsonl"])
        assert [c.id for c in result.conversations] == ["same", "same#2"]
        assert 'conversation "same": the id is used before: replayed as "same#2"' in map(
            str, result.problems
        )
        failed = dict(result.failed)
        assert set(failed) == {str(tmp_path / "c.json"), str(tmp_path / "missing.jsonl")}
        assert "cannot be read" in failed[str(tmp_path / "missing.jsonl")]

    def test_the_samples_are_10_to_15_conversations_that_trim_at_a_few_hundred_tokens(
        self,
    ) -> None:
        """The shipped samples: OpenAI lines and ShareGPT, annotated needs, tool calls, and in
        every conversation a history over 440 tokens by its last user turn, so a 400-token
        budget trims each one."""
        result = read_conversations([SAMPLES])
        assert not result.problems and not result.failed
        assert 10 <= len(result.conversations) <= 15
        assert set(result.formats.values()) == {"openai", "sharegpt"}
        counter = TokenCounter()
        for conversation in result.conversations:
            last = conversation.user_turns[-1]
            history = [*conversation.orientation, *conversation.messages[: last + 1]]
            assert sum(map(counter.message_size, history)) > 440, conversation.id
            assert len(conversation.user_turns) >= 4, conversation.id
        assert any(c.needs for c in result.conversations)
        assert any("tool_calls" in m for c in result.conversations for m in c.messages)


# --------------------------------------------------------------------------
# Goals


def only(conversation_line: str) -> Conversation:
    ((conversation,), _, _) = read(conversation_line)
    return conversation


class TestGoals:
    def test_annotations_follow_need_tracker_semantics(self) -> None:
        """Annotated needs are classified by the need tracker: a new need is a new goal, the
        same need again a same-task re-emit, an earlier need a return to that goal."""
        conversation = only(
            chat(
                "a",
                ("user", "one"), ("assistant", "x"),
                ("user", "two"), ("assistant", "x"),
                ("user", "three"), ("assistant", "x"),
                ("user", "four"),
                need={0: "Plan the Lisbon trip", 2: "Plan the Lisbon trip", 4: "Write the release notes", 6: "Plan the Lisbon trip"},
            )
        )  # fmt: skip
        timeline = goal_timeline(conversation)
        assert [t.switch for t in timeline.turns] == [
            Switch("first_need", 0),
            Switch("same_task", 0),
            Switch("new_goal", 4),
            Switch("return", 0, returns_to=0),
        ]
        assert {t.source for t in timeline.turns} == {"annotation"}
        assert [t.need for t in timeline.turns] == [
            "Plan the Lisbon trip", "Plan the Lisbon trip", "Write the release notes", "Plan the Lisbon trip",
        ]  # fmt: skip
        assert timeline.owners == (0, 0, 0, 0, 4, 4, 0)

    def test_a_callable_decides_unannotated_turns_and_annotations_still_win(self) -> None:
        """A SwitchCallable decides where no annotation does; a continued goal declares no need."""
        calls: list[int] = []

        def detector(
            messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
        ) -> Switch:
            calls.append(turn)
            # the detector sees the turn's answer, never a later user turn
            assert len(messages) == turn + 2 and messages[turn + 1]["role"] == "assistant"
            return (
                Switch("first_need", turn)
                if not earlier
                else Switch("same_task", earlier[-1].goal_start)
            )

        conversation = only(
            chat("b", ("user", "a"), ("assistant", "x"), ("user", "b"), ("assistant", "x"), ("user", "c"), need={4: "Something else"})
        )  # fmt: skip
        timeline = goal_timeline(conversation, detector)
        assert calls == [0, 2]
        assert [(t.source, t.switch.reason, t.need) for t in timeline.turns] == [
            ("callable", "first_need", "a"),
            ("callable", "same_task", None),
            ("annotation", "new_goal", "Something else"),
        ]

    def test_a_failing_detector_is_reported_and_the_heuristic_decides(self) -> None:
        """A detector that raises or answers nonsense costs only that turn's decision."""

        def broken(
            messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
        ) -> Switch:
            if turn == 0:
                raise RuntimeError("model offline")
            return Switch("return", 99, returns_to=99)

        conversation = only(chat("c", ("user", "a"), ("assistant", "x"), ("user", "b")))
        timeline = goal_timeline(conversation, broken)
        assert [t.source for t in timeline.turns] == ["heuristic", "heuristic"]
        assert [str(p) for p in timeline.problems] == [
            'conversation "c", message 0: the detector raised RuntimeError: model offline; '
            "the heuristic decided instead",
            'conversation "c", message 2: the detector returned a return to 99, not an earlier '
            "goal; the heuristic decided instead",
        ]

    def test_a_detector_class_or_object_with_classify_is_accepted(self) -> None:
        """GoalSwitchDetector objects (the heuristic included) are used through .classify."""
        conversation = only(chat("d", ("user", "a"), ("assistant", "x"), ("user", "b")))
        assert goal_timeline(conversation, HeuristicDetector()).turns[0].source == "heuristic"
        with pytest.raises(ReplayError, match="GoalSwitchDetector"):
            goal_timeline(conversation, 42)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Replay


REPLAY_ATTRIBUTES = (
    sc.REPLAY_CONVERSATION_ID,
    sc.REPLAY_TURN_INDEX,
    sc.REPLAY_TURN_MESSAGE_INDEX,
    sc.REPLAY_STRATEGY,
    sc.REPLAY_COMPACTION,
    sc.REPLAY_GOAL_SWITCH,
    sc.REPLAY_GOAL_SOURCE,
    sc.REPLAY_GOAL_START_INDEX,
)
TRIM_ONLY = (
    sc.REPLAY_GOAL_FIRST_TURN_REMOVED,
    sc.REPLAY_DROPPED_SIZE,
    sc.REPLAY_SUMMARIZED_SIZE,
)


class TestReplay:
    @pytest.mark.parametrize("strategy", STRATEGIES)
    @pytest.mark.parametrize("compaction", [False, True], ids=["off", "on"])
    def test_each_strategy_and_compaction_records_replayed_spans_with_the_attributes(
        self,
        strategy: str,
        compaction: bool,
        replay_provider: TracerProvider,
        span_exporter: InMemorySpanExporter,
    ) -> None:
        """One session per combination: a trim span per user turn and a boundary shift per
        declared need (here every turn's annotation), all with origin replayed and the
        recurscope.replay.* attributes."""
        conversation = only(switching_conversation())
        report = replay(
            [conversation],
            tracer_provider=replay_provider,
            budget=300,
            strategies=[strategy],
            compaction=[compaction],
        )
        spans = span_exporter.get_finished_spans()
        assert report.spans == len(spans) == 4 + 4  # 4 turns, each declaring a need
        sid = session_id("trip", strategy, compaction)
        assert report.session_ids == (sid,)
        for span in spans:
            assert span.resource.attributes[sc.ORIGIN] == "replayed"
            attrs = dict(span.attributes or {})
            assert attrs[sc.GEN_AI_CONVERSATION_ID] == sid
            assert all(name in attrs for name in REPLAY_ATTRIBUTES), attrs
            assert attrs[sc.REPLAY_STRATEGY] == strategy
            assert attrs[sc.REPLAY_COMPACTION] is compaction
        trims = attributes_by_name(spans, sc.SPAN_TRIM)
        assert [t[sc.REPLAY_TURN_INDEX] for t in trims] == [0, 1, 2, 3]
        assert [t[sc.REPLAY_TURN_MESSAGE_INDEX] for t in trims] == [0, 2, 4, 6]
        assert [t[sc.REPLAY_GOAL_SWITCH] for t in trims] == [
            "first_need",
            "new_goal",
            "return",
            "same_task",
        ]
        assert all(all(name in t for name in TRIM_ONLY) for t in trims)
        assert all(t[sc.TRIM_STRATEGY] == strategy for t in trims)
        assert any(t[sc.TRIM_TRIMMED] for t in trims)
        returned = trims[2]
        assert returned[sc.REPLAY_RETURN_TO_INDEX] == 0
        assert 0 <= returned[sc.REPLAY_RETURN_REMOVED_SIZE] <= returned[sc.REPLAY_RETURN_SIZE] > 0
        if compaction:
            assert sum(t[sc.REPLAY_SUMMARIZED_SIZE] for t in trims) > 0
            assert all(sc.TRIM_COMPACTION_USED in t for t in trims)
        else:
            assert all(t[sc.REPLAY_SUMMARIZED_SIZE] == 0 for t in trims)
            assert not any(sc.TRIM_COMPACTION_USED in t for t in trims)
        shifts = attributes_by_name(spans, sc.SPAN_BOUNDARY_SHIFT)
        assert [s[sc.GOAL_REASON] for s in shifts] == [
            "first_need", "new_goal", "resumed_goal", "same_task_reemit",
        ]  # fmt: skip
        (totals,) = report.totals
        assert totals.plannings == 4 and totals.returns == 1
        assert totals.dropped_size == sum(t[sc.REPLAY_DROPPED_SIZE] for t in trims)
        assert totals.summarized_size == sum(t[sc.REPLAY_SUMMARIZED_SIZE] for t in trims)
        assert totals.stale_asks_dropped == sum(
            bool(t.get(sc.TRIM_STALE_ASK_DROPPED)) for t in trims
        )
        assert totals.goal_first_turns_removed == sum(
            t[sc.REPLAY_GOAL_FIRST_TURN_REMOVED] for t in trims
        )

    def test_the_strategies_differ_where_they_should(
        self, replay_provider: TracerProvider, span_exporter: InMemorySpanExporter
    ) -> None:
        """On a return, goal_aware drops the stale ask (the returned-to goal's first turn), while
        head_tail pins it: the replay attributes show exactly that difference."""
        replay(
            [only(switching_conversation())],
            tracer_provider=replay_provider,
            budget=300,
            compaction=[False],
        )
        by_strategy = {
            t[sc.REPLAY_STRATEGY]: t
            for t in attributes_by_name(span_exporter.get_finished_spans(), sc.SPAN_TRIM)
            if t[sc.REPLAY_GOAL_SWITCH] == "return"
        }
        assert by_strategy["goal_aware"][sc.TRIM_STALE_ASK_DROPPED] is True
        assert by_strategy["goal_aware"][sc.REPLAY_GOAL_FIRST_TURN_REMOVED] is True
        assert by_strategy["head_tail"][sc.TRIM_STALE_ASK_DROPPED] is False
        assert (
            by_strategy["head_tail"][sc.REPLAY_RETURN_REMOVED_SIZE]
            < by_strategy["goal_aware"][sc.REPLAY_RETURN_REMOVED_SIZE]
        )

    def test_a_provider_that_does_not_mark_spans_replayed_is_refused(self) -> None:
        """Replayed spans must never pose as observed ones."""
        provider = TracerProvider(resource=Resource.create({"service.name": "x"}))
        with pytest.raises(ReplayError, match=r"recurscope\.origin='replayed'"):
            Replayer(tracer_provider=provider, budget=300)
        with pytest.raises(ReplayError, match="budget"):
            Replayer(tracer_provider=None, budget=0)
        with pytest.raises(ReplayError, match="strategies"):
            Replayer(tracer_provider=None, budget=10, strategies=["newest_first"])

    def test_without_a_provider_it_only_counts(self) -> None:
        """tracer_provider=None records nothing but still sums up what each strategy did."""
        report = replay([only(switching_conversation())], tracer_provider=None, budget=300)
        combinations = 2 * len(STRATEGIES)  # each strategy, compaction off and on
        assert report.spans == 0 and report.sessions == combinations
        assert len(report.totals) == combinations
        assert all(t.plannings == 4 for t in report.totals)

    def test_a_conversation_without_a_user_turn_is_reported_not_replayed(self) -> None:
        """Nothing to plan at: a problem, and the other conversations replay."""
        report = replay(
            [only(chat("quiet", ("assistant", "hello?"))), only(chat("ok", ("user", "hi")))],
            tracer_provider=None,
            budget=100,
        )
        assert report.conversations == 1
        assert [str(p) for p in report.problems] == [
            'conversation "quiet": no user message: nothing to replay'
        ]

    def test_a_user_summarizer_named_module_function(
        self,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        replay_provider: TracerProvider,
        span_exporter: InMemorySpanExporter,
    ) -> None:
        """--summarizer module:function (or file.py:function) replaces the extractive summary,
        and is called once per removal; the totals count what the spans say."""
        (tmp_path / "my_summaries.py").write_text(
            "CALLS = []\n"
            "def summarize(messages):\n"
            "    CALLS.append(len(messages))\n"
            "    return 'SUMMARY of %d messages' % len(messages)\n"
        )
        monkeypatch.chdir(tmp_path)
        summarizer = load_callable("my_summaries:summarize", "--summarizer")
        by_file = load_callable(str(tmp_path / "my_summaries.py") + ":summarize", "--summarizer")
        assert by_file.__name__ == "summarize"
        report = replay(
            [only(switching_conversation())],
            tracer_provider=replay_provider,
            budget=300,
            strategies=["goal_aware"],
            compaction=[True],
            summarizer=summarizer,
        )
        module = __import__("my_summaries")
        trims = attributes_by_name(span_exporter.get_finished_spans(), sc.SPAN_TRIM)
        summarized = [t for t in trims if t.get(sc.TRIM_COMPACTION_USED)]
        assert summarized and len(module.CALLS) == len(summarized)
        counter = TokenCounter()
        assert summarized[0][sc.TRIM_SUMMARY_SIZE] == counter.count(
            f"SUMMARY of {module.CALLS[0]} messages"
        )
        (totals,) = report.totals
        assert totals.summarized_size == sum(t[sc.REPLAY_SUMMARIZED_SIZE] for t in trims)

    def test_load_callable_says_what_is_wrong(self, tmp_path: Path) -> None:
        """A bad module:function names the problem instead of a traceback."""
        with pytest.raises(ReplayError, match="is not module:function"):
            load_callable("nocolon")
        with pytest.raises(ReplayError, match="cannot import"):
            load_callable("no_such_module_here:f")
        with pytest.raises(ReplayError, match="has no nothing"):
            load_callable("json:nothing")
        with pytest.raises(ReplayError, match="not callable"):
            load_callable("json:__doc__")

    def test_same_input_gives_the_same_spans(self, tmp_path: Path) -> None:
        """Two replays of the samples write the same spans, apart from ids, times and the run."""
        files = []
        for name in ("one.jsonl", "two.jsonl"):
            out = tmp_path / name
            assert main(["replay", str(SAMPLES), "--budget", "400", "--out", str(out)]) == 0
            files.append(out)
        first, second = (
            [strip_variable(line) for line in f.read_text().splitlines()] for f in files
        )
        assert first == second and sum(map(len, first)) > 500


class TestExtractiveSummary:
    def test_first_sentences_in_order_with_roles(self) -> None:
        """Each removed message gives its first sentence, role-prefixed, in order."""
        text = extractive_summary(
            [
                {"role": "user", "content": "Plan my trip. It is in April."},
                {"role": "assistant", "content": "Day one is Belem.\nDay two is Alfama."},
                {"role": "assistant", "content": None, "tool_calls": []},
            ]
        )
        assert text == (
            "Summary of earlier messages:\n- user: Plan my trip.\n- assistant: Day one is Belem.\n"
            "(and 1 more message)"
        )

    @settings(max_examples=200, deadline=None)
    @given(
        st.lists(
            st.fixed_dictionaries(
                {"role": st.one_of(st.text(max_size=20), st.none(), st.integers()),
                 "content": st.one_of(st.text(max_size=3000), st.none(), st.lists(st.one_of(st.text(max_size=50), st.dictionaries(st.text(max_size=5), st.text(max_size=20)))))}
            ),
            max_size=40,
        )
    )  # fmt: skip
    def test_bounded_deterministic_never_blank(self, messages: list[dict[str, Any]]) -> None:
        """Any removed messages give the same non-blank summary twice, within the cap plus a count line."""
        text = extractive_summary(messages)
        assert text == extractive_summary(messages) and text.strip()
        assert len(text) <= MAX_CHARS + len("\n(and 40 more messages)")
        assert "\x00" not in text


# --------------------------------------------------------------------------
# The command, its outputs, and the demo


class _Collector(BaseHTTPRequestHandler):
    """An OTLP/HTTP endpoint stand-in that keeps every request body."""

    bodies: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        type(self).bodies.append(self.rfile.read(length))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


class TestCommand:
    def test_out_ingests_and_compare_by_strategy_reads_it(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The file output ingests with `recurscope ingest`; `compare --by strategy
        --include-simulated` compares the replayed strategies; `validate` passes every span."""
        out, db = tmp_path / "replay.jsonl", tmp_path / "store.duckdb"
        assert (
            main(["replay", str(SAMPLES), "--budget", "400", "--out", str(out), "--no-progress"])
            == 0
        )
        printed = capsys.readouterr().out
        assert "goal_aware   off" in printed and "drop_oldest  on" in printed
        assert "spans (origin replayed) written" in printed
        assert main(["ingest", str(out), "--db", str(db), "--no-progress"]) == 0
        capsys.readouterr()
        assert main(["compare", "--by", "strategy", "--include-simulated", "--db", str(db)]) == 0
        comparison = capsys.readouterr().out
        assert "Comparison by strategy" in comparison and "replayed" in comparison
        assert main(["validate", str(out)]) == 0
        con = duckdb.connect(str(db), read_only=True)
        try:
            origins = con.execute(
                "SELECT DISTINCT ResourceAttributes['recurscope.origin'] FROM otel_traces"
            ).fetchall()
            sessions = con.execute(
                "SELECT count(DISTINCT SpanAttributes['gen_ai.conversation.id']) FROM otel_traces"
            ).fetchone()
        finally:
            con.close()
        assert origins == [("replayed",)]
        assert sessions == (13 * 2 * len(STRATEGIES),)

    def test_input_problems_are_warnings_and_the_rest_replays(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A bad message is one warning line naming conversation and index; exit 0."""
        source = tmp_path / "chats.jsonl"
        bad = json.dumps({"id": "c7", "messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}, {"role": "narrator", "content": "d"}]})  # fmt: skip
        source.write_text(bad + "\n" + switching_conversation() + "\n")
        out = tmp_path / "out.jsonl"
        assert main(["replay", str(source), "--budget", "300", "--out", str(out)]) == 0
        captured = capsys.readouterr()
        assert (
            'recurscope replay: warning: conversation "c7", message 3: unknown role "narrator" '
            "(expected user, assistant, system, tool): message left out"
        ) in captured.err
        assert f"2 conversations, 6 user turns, {2 * 2 * len(STRATEGIES)} sessions" in captured.out

    def test_a_user_detector_named_on_the_command_line(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--detector module:function decides the unannotated turns (source `callable`)."""
        (tmp_path / "my_detector.py").write_text(
            "from recurscope.pipeline.replay.goal_detect import Switch\n"
            "def detect(messages, turn, earlier):\n"
            "    return Switch('first_need', turn) if not earlier else Switch('new_goal', turn)\n"
        )
        monkeypatch.chdir(tmp_path)
        source = tmp_path / "c.jsonl"
        source.write_text(chat("k", ("user", "a"), ("assistant", "b"), ("user", "c")) + "\n")
        out = tmp_path / "out.jsonl"
        args = [
            "replay",
            str(source),
            "--budget",
            "300",
            "--out",
            str(out),
            "--detector",
            "my_detector:detect",
        ]
        assert main([*args, "--strategies", "goal_aware", "--compaction", "off"]) == 0
        text = out.read_text()
        assert text.count('"recurscope.replay.goal.source","value":{"stringValue":"callable"}') == 4
        assert '"stringValue":"new_goal"' in text

    def test_usage_errors(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Missing or doubled outputs, unknown strategies and unloadable callables exit 2."""
        source = tmp_path / "c.jsonl"
        source.write_text(chat("k", ("user", "a")) + "\n")
        base = ["replay", str(source), "--budget", "300"]
        assert main(base) == 2
        assert "give --out FILE or --endpoint URL" in capsys.readouterr().err
        with pytest.raises(SystemExit) as exit_info:
            main([*base, "--out", "x", "--strategies", "newest"])
        assert exit_info.value.code == 2
        assert main([*base, "--out", str(tmp_path / "o.jsonl"), "--detector", "nope:nothing"]) == 2
        assert "cannot import nope" in capsys.readouterr().err
        assert main([*base, "--out", str(tmp_path / "o.jsonl"), "--encoding", "no_such"]) == 2

    def test_nothing_readable_is_a_runtime_error(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """No conversation at all: the one error form, exit 1."""
        bad = tmp_path / "bad.json"
        bad.write_text("nope")
        assert main(["replay", str(bad), "--budget", "300", "--out", str(tmp_path / "o")]) == 1
        assert "no conversation to replay" in capsys.readouterr().err

    def test_endpoint_sends_replayed_spans_over_otlp_http(self, tmp_path: Path) -> None:
        """--endpoint posts OTLP/HTTP protobuf to /v1/traces whose resource says replayed."""
        _Collector.bodies = []
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            source = tmp_path / "c.jsonl"
            source.write_text(switching_conversation() + "\n")
            url = f"http://127.0.0.1:{server.server_address[1]}"
            code = main(
                ["replay", str(source), "--budget", "300", "--endpoint", url, "--compaction", "off"]
            )
        finally:
            server.shutdown()
        assert code == 0 and _Collector.bodies
        names: Counter[str] = Counter()
        for body in _Collector.bodies:
            request = ExportTraceServiceRequest.FromString(body)
            for resource_spans in request.resource_spans:
                resource = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
                assert resource[sc.ORIGIN] == "replayed"
                for scope in resource_spans.scope_spans:
                    names.update(span.name for span in scope.spans)
        each = 4 * len(STRATEGIES)  # four turns, one session per strategy
        assert names == {sc.SPAN_TRIM: each, sc.SPAN_BOUNDARY_SHIFT: each}


@pytest.mark.slow
def test_the_demo_replays_the_samples_beside_the_simulated_sessions(tmp_path: Path) -> None:
    """`recurscope demo`'s store holds the sample conversations replayed (origin replayed), on
    the demo's days, and compare by strategy reads them; a rerun still replaces the store."""
    from recurscope.dashboards.cli import prepare_demo
    from recurscope.pipeline.verdict.compare import compare
    from recurscope.pipeline.verdict.rule import default_preregistration_path

    db = tmp_path / "data" / "recurscope.duckdb"
    demo = prepare_demo(db, sessions=4)
    assert demo.replayed_sessions == 13 * 2 * len(STRATEGIES) and demo.replayed_spans > 500
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = dict(
            con.execute(
                "SELECT ResourceAttributes['recurscope.origin'], count(DISTINCT "
                "SpanAttributes['gen_ai.conversation.id']) FROM otel_traces GROUP BY 1"
            ).fetchall()
        )
        days = con.execute(
            "SELECT count(DISTINCT Timestamp::DATE) FROM otel_traces WHERE "
            "ResourceAttributes['recurscope.origin'] = 'replayed'"
        ).fetchone()
        comparison = compare(
            con,
            "strategy",
            preregistration_path=default_preregistration_path(),
            include_simulated=True,
        )
    finally:
        con.close()
    assert rows == {"simulated": 4, "replayed": 13 * 2 * len(STRATEGIES)}
    assert days is not None and days[0] > 1
    assert comparison.sessions_a + comparison.sessions_b >= 2 * 26
    again = prepare_demo(db, sessions=4)
    assert again.replayed_spans == demo.replayed_spans


# --------------------------------------------------------------------------
# Hostile input


HOSTILE = st.one_of(
    st.text(max_size=200),
    st.sampled_from(
        [
            "\x00",
            "a\x00b",
            "<script>alert(1)</script>",
            "# Heading\n\n```python\nprint(1)\n```",
            "**bold** [link](javascript:x) <img src=x onerror=y>",
            "\ud800",
            "x" * 20_000,
            "",
            "   ",
        ]
    ),
)
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | HOSTILE,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(HOSTILE, inner, max_size=4),
    max_leaves=12,
)
MESSAGE = st.fixed_dictionaries(
    {
        "role": st.one_of(st.sampled_from(["user", "assistant", "system", "tool"]), HOSTILE, ANY_JSON),
        "content": st.one_of(HOSTILE, ANY_JSON, st.lists(st.fixed_dictionaries({"type": st.sampled_from(["text", "image_url"]), "text": HOSTILE}), max_size=3)),
    },
    optional={"need": st.one_of(HOSTILE, ANY_JSON), "tool_calls": ANY_JSON, "from": HOSTILE, "value": HOSTILE},
)  # fmt: skip


class TestHostileInput:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        ids=st.lists(st.one_of(HOSTILE, ANY_JSON), min_size=1, max_size=3),
        conversations=st.lists(st.lists(MESSAGE, max_size=6), min_size=1, max_size=3),
        sharegpt=st.booleans(),
    )
    def test_any_fields_read_and_replay_without_crashing(
        self, ids: list[Any], conversations: list[list[dict[str, Any]]], sharegpt: bool
    ) -> None:
        """Markdown, HTML, NUL, lone surrogates, huge strings and wrong types in any field:
        reading gives conversations and problems, replaying gives spans, nothing raises."""
        key = "conversations" if sharegpt else "messages"
        lines = []
        for index, messages in enumerate(conversations):
            if sharegpt:
                messages = [{"from": m.get("role"), "value": m.get("content"), **({"need": m["need"]} if "need" in m else {})} for m in messages]  # fmt: skip
            lines.append(json.dumps({"id": ids[index % len(ids)], key: messages}))
        try:
            found, problems, _ = read("\n".join(lines).encode("utf-8", "surrogatepass"))
        except ReplayError:
            return
        for problem in problems:
            assert "\x00" not in str(problem) and "\n" not in str(problem)
        provider = TracerProvider(resource=Resource.create({sc.ORIGIN: "replayed"}))
        exporter = InMemorySpanExporter()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        replay(found, tracer_provider=provider, budget=50, compaction=[False, True])
        for span in exporter.get_finished_spans():
            assert span.resource.attributes[sc.ORIGIN] == "replayed"

    def test_huge_ids_and_contents_are_bounded_where_they_reach_attributes(
        self, tmp_path: Path
    ) -> None:
        """A 10,000-character id with NUL bytes becomes a short printable session id; a 1 MB
        message replays and writes a file that ingests."""
        line = json.dumps(
            {"id": "id\x00" * 3000, "messages": [{"role": "user", "content": "z " * 500_000}, {"role": "assistant", "content": "<b>ok</b>"}, {"role": "user", "content": "again"}]}
        )  # fmt: skip
        source = tmp_path / "huge.jsonl"
        source.write_text(line + "\n")
        out = tmp_path / "out.jsonl"
        assert (
            main(
                [
                    "replay",
                    str(source),
                    "--budget",
                    "200",
                    "--out",
                    str(out),
                    "--strategies",
                    "goal_aware",
                ]
            )
            == 0
        )
        ((conversation,), _, _) = read(line)
        assert len(conversation.id) < 120 and "\x00" not in conversation.id
        assert main(["ingest", str(out), "--db", str(tmp_path / "s.duckdb"), "--no-progress"]) == 0
