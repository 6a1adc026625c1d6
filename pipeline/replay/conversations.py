"""Conversations to replay, read from chat transcripts or recorded GenAI spans.

Three inputs, detected per file (``input_format="auto"``) or named:

- ``openai`` — OpenAI-style chat messages (``{"role", "content"}``): one
  conversation as a JSON array of messages, or JSON lines / a JSON array of
  ``{"id": ..., "messages": [...]}``;
- ``sharegpt`` — ``{"id": ..., "conversations": [{"from": "human", "value": "..."}]}``,
  as a JSON array or JSON lines (``from`` maps to a role: human/user → user,
  gpt/assistant/chatgpt/bard → assistant, system → system, tool/function → tool);
- ``otlp-json`` — recorded spans as ``recurscope ingest`` reads them (OTLP
  JSON lines or one document, optionally gzip; decoded by
  :mod:`recurscope.pipeline.decode`) whose span or event attributes carry
  ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (the OTel GenAI
  message schemas): one conversation per ``gen_ai.conversation.id`` (spans
  without one: one per trace), its calls in time order.

Every message becomes ``{"role": ..., "content": str}`` (plus ``tool_calls``
when an assistant message calls tools): text parts of multi-part content are
joined with a line break. A user message may carry a ``need`` (the goal text,
see ``docs/replay.md``). Leading system messages are the conversation's
orientation, which trimming never touches.

Bad input never stops a read: an unknown role, missing content or a
non-text part becomes an :class:`InputProblem` naming the conversation and
the message index (``conversation "c7", message 3: unknown role "narrator"
(expected user, assistant, system, tool)``); the message (or only the part)
is left out and the rest of the conversation, and the other conversations,
are kept. Only a file that cannot be read at all raises :class:`ReplayError`.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, get_args

from ..errors import PipelineError

__all__ = [
    "INPUT_FORMATS",
    "MAX_INPUT_BYTES",
    "ROLES",
    "Conversation",
    "InputFormat",
    "InputProblem",
    "ReadResult",
    "ReplayError",
    "detect_input_format",
    "parse_conversations",
    "read_conversations",
]

InputFormat = Literal["openai", "sharegpt", "otlp-json"]
INPUT_FORMATS: Final[tuple[str, ...]] = get_args(InputFormat)
"""The input formats ``--input-format`` names (``auto`` detects one per file)."""

ROLES: Final = ("user", "assistant", "system", "tool")
"""The roles a replayed message has."""

MAX_INPUT_BYTES: Final = 512 * 1024 * 1024
"""Largest (decompressed) input file: a file is read whole."""

# Spellings of the four roles. OpenAI's "developer" is its newer "system",
# "function" its older "tool".
_OPENAI_ROLES: Final = {
    "user": "user",
    "assistant": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "tool",
    "function": "tool",
}
_SHAREGPT_ROLES: Final = {
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "assistant": "assistant",
    "chatgpt": "assistant",
    "bard": "assistant",
    "system": "system",
    "tool": "tool",
    "function": "tool",
}
_TEXT_PARTS: Final = frozenset({"text", "input_text", "output_text"})
_GZIP_MAGIC: Final = b"\x1f\x8b"
_BOM: Final = "\ufeff"
_ID_CHARS: Final = 100
_SHOWN_CHARS: Final = 60
_NEED_KEY: Final = "need"
_INPUT_MESSAGES: Final = "gen_ai.input.messages"
_OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
_SYSTEM_INSTRUCTIONS: Final = "gen_ai.system_instructions"
_CONVERSATION_ID: Final = "gen_ai.conversation.id"
# Lone surrogates (JSON escapes like "\ud800") cannot be encoded as UTF-8:
# exporters and tokenizers choke on them. They become U+FFFD.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_UNPRINTABLE: Final = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")


class ReplayError(PipelineError):
    """A replay input or option that cannot be used; the message says what to do instead."""


@dataclass(frozen=True, slots=True)
class InputProblem:
    """Something in an input that was left out (or read another way), and where.

    ``conversation`` and ``message`` (the message's 0-based index in the
    conversation as given) locate it when known; otherwise ``source`` and
    ``line`` do. ``str(problem)`` is the one-line message to show.
    """

    source: str
    text: str
    conversation: str | None = None
    message: int | None = None
    line: int | None = None

    def __str__(self) -> str:
        if self.conversation is not None:
            where = f"conversation {_shown(self.conversation)}"
        else:
            where = self.source + (f", line {self.line}" if self.line is not None else "")
        if self.message is not None:
            where += f", message {self.message}"
        return f"{where}: {self.text}"


@dataclass(frozen=True)
class Conversation:
    """One conversation, ready to replay.

    Fields:
        id: the conversation's id (cleaned: no control characters, at most
            about 110 characters; unique within one read).
        orientation: its leading system messages, never trimmed.
        messages: the rest, oldest first: dicts with ``role`` (one of
            :data:`ROLES`) and ``content`` (a string), plus ``tool_calls``
            on an assistant message that calls tools.
        needs: annotated need texts by index into ``messages`` (user messages only).
        message_numbers: for each of ``messages``, its index in the input
            (what problems name).
        source: the file it came from.

    Invariant: ``len(message_numbers) == len(messages)``; ``needs`` keys are
    indices of user messages.
    """

    id: str
    orientation: tuple[dict[str, Any], ...]
    messages: tuple[dict[str, Any], ...]
    needs: Mapping[int, str] = field(default_factory=dict)
    message_numbers: tuple[int, ...] = ()
    source: str = ""

    @property
    def user_turns(self) -> tuple[int, ...]:
        """Indices into ``messages`` of the user messages: the turns a replay plans at."""
        return tuple(i for i, m in enumerate(self.messages) if m["role"] == "user")


@dataclass(frozen=True)
class ReadResult:
    """What :func:`read_conversations` read.

    ``formats`` maps each source to the input format it was read as;
    ``failed`` lists ``(source, why)`` for sources that could not be read at
    all (a missing file, not JSON, no conversation in it).
    """

    conversations: tuple[Conversation, ...]
    problems: tuple[InputProblem, ...]
    formats: Mapping[str, str]
    failed: tuple[tuple[str, str], ...] = ()


def _shown(value: object) -> str:
    """``value`` quoted for a one-line message: JSON-escaped (no control characters), capped."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > _SHOWN_CHARS:
        text = text[: _SHOWN_CHARS - 1] + "…"
    return json.dumps(_SURROGATE.sub("\ufffd", text), ensure_ascii=False)


def _clean(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def _clean_id(value: object) -> str | None:
    """A usable conversation id from an input's ``id`` field, or None."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    text = _UNPRINTABLE.sub("\ufffd", str(value)).strip()
    if not text:
        return None
    if len(text) > _ID_CHARS:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        text = f"{text[:_ID_CHARS]}…{digest}"
    return text


# --------------------------------------------------------------------------
# Messages


class _Collector:
    """Normalized messages of one conversation, and the problems met while reading them."""

    def __init__(self, source: str, conversation: str) -> None:
        self.source = source
        self.conversation = conversation
        self.entries: list[tuple[int, dict[str, Any], str | None]] = []
        self.problems: list[InputProblem] = []

    def problem(self, index: int | None, text: str) -> None:
        self.problems.append(InputProblem(self.source, text, self.conversation, index))

    def add(self, index: int, message: dict[str, Any], need: object) -> None:
        checked: str | None = None
        if need is not None:
            if message["role"] != "user":
                self.problem(index, f"a need on a {message['role']} message is ignored")
            elif not isinstance(need, str):
                self.problem(index, f"need is {_kind(need)}, not text: ignored")
            elif not need.strip():
                self.problem(index, "need is blank: ignored")
            else:
                checked = _clean(need)
        self.entries.append((index, message, checked))

    def build(self) -> Conversation:
        orientation: list[dict[str, Any]] = []
        position = 0
        while position < len(self.entries) and self.entries[position][1]["role"] == "system":
            orientation.append(self.entries[position][1])
            position += 1
        rest = self.entries[position:]
        needs = {i: need for i, (_, _, need) in enumerate(rest) if need is not None}
        return Conversation(
            id=self.conversation,
            orientation=tuple(orientation),
            messages=tuple(message for _, message, _ in rest),
            needs=needs,
            message_numbers=tuple(number for number, _, _ in rest),
            source=self.source,
        )


def _kind(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    for python_type, name in names.items():
        if isinstance(value, python_type):
            return name
    return "a number" if isinstance(value, int | float) else type(value).__name__


def _text_of_parts(
    parts: Sequence[Any], collector: _Collector, index: int, *, genai: bool
) -> tuple[str | None, list[dict[str, Any]]]:
    """(joined text of the text parts, tool calls) of a multi-part content; notes the rest."""
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    left_out: Counter[str] = Counter()
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
            continue
        if not isinstance(part, Mapping):
            left_out[_kind(part)] += 1
            continue
        kind = part.get("type")
        text = part.get("content") if genai else part.get("text")
        if kind in _TEXT_PARTS or (kind is None and isinstance(text, str)):
            if isinstance(text, str):
                texts.append(text)
            else:
                left_out["text part without text"] += 1
        elif genai and kind == "tool_call":
            calls.append(_tool_call(part))
        elif genai and kind == "tool_call_response":
            response = part.get("response")
            texts.append(response if isinstance(response, str) else _json(response))
        else:
            left_out[kind if isinstance(kind, str) else "untyped"] += 1
    if left_out:
        listed = ", ".join(
            _shown(name) + (f" ({count}x)" if count > 1 else "") for name, count in left_out.items()
        )
        collector.problem(index, f"non-text parts left out: {listed}")
    if not texts:
        return (None if left_out or not calls else ""), calls
    return _clean("\n".join(texts)), calls


def _json(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)
    except (TypeError, ValueError, RecursionError):  # keys of mixed types, too deep
        text = repr(value)
    return _clean(text)


def _tool_call(part: Mapping[str, Any]) -> dict[str, Any]:
    arguments = part.get("arguments")
    return {
        "id": str(part.get("id") or ""),
        "type": "function",
        "function": {
            "name": str(part.get("name") or ""),
            "arguments": _clean(arguments) if isinstance(arguments, str) else _json(arguments),
        },
    }


def _openai_tool_calls(value: object) -> list[dict[str, Any]]:
    """The tool calls the planner sizes, from an OpenAI ``tool_calls`` field."""
    calls: list[dict[str, Any]] = []
    if not isinstance(value, list):
        return calls
    for call in value:
        if isinstance(call, Mapping) and isinstance(call.get("function"), Mapping):
            function = call["function"]
            arguments = function.get("arguments")
            calls.append(
                {
                    "id": str(call.get("id") or ""),
                    "type": "function",
                    "function": {
                        "name": str(function.get("name") or ""),
                        "arguments": _clean(arguments)
                        if isinstance(arguments, str)
                        else _json(arguments),
                    },
                }
            )
    return calls


def _role(
    value: object, table: Mapping[str, str], collector: _Collector, index: int, key: str
) -> str | None:
    expected = f"expected {', '.join(ROLES)}"
    if key == "from":
        expected += '; "from" also takes human, gpt, chatgpt, bard, function'
    if value is None:
        collector.problem(index, f'missing "{key}" ({expected}): message left out')
        return None
    role = table.get(value.lower()) if isinstance(value, str) else None
    if role is None:
        collector.problem(index, f"unknown role {_shown(value)} ({expected}): message left out")
    return role


def _openai_message(message: object, collector: _Collector, index: int) -> None:
    if not isinstance(message, Mapping):
        collector.problem(index, f"a message must be an object, not {_kind(message)}")
        return
    role = _role(message.get("role"), _OPENAI_ROLES, collector, index, "role")
    if role is None:
        return
    calls = _openai_tool_calls(message.get("tool_calls")) if role == "assistant" else []
    content = message.get("content")
    text: str | None
    if isinstance(content, str):
        text = _clean(content)
    elif isinstance(content, list):
        text, _ = _text_of_parts(content, collector, index, genai=False)
        if text is None and not calls:
            collector.problem(index, "no text left: message left out")
            return
    elif content is None and calls:
        text = ""  # an assistant message that only calls tools
    elif content is None:
        collector.problem(index, "missing content: message left out")
        return
    else:
        collector.problem(index, f"content is {_kind(content)}, not text or parts: left out")
        return
    out: dict[str, Any] = {"role": role, "content": text or ""}
    if calls:
        out["tool_calls"] = calls
    collector.add(index, out, message.get(_NEED_KEY))


def _sharegpt_turn(turn: object, collector: _Collector, index: int) -> None:
    if not isinstance(turn, Mapping):
        collector.problem(index, f"a turn must be an object, not {_kind(turn)}")
        return
    role = _role(turn.get("from"), _SHAREGPT_ROLES, collector, index, "from")
    if role is None:
        return
    value = turn.get("value")
    if isinstance(value, list):
        text, _ = _text_of_parts(value, collector, index, genai=False)
        if text is None:
            collector.problem(index, "no text left: message left out")
            return
    elif isinstance(value, str):
        text = _clean(value)
    elif value is None:
        collector.problem(index, 'missing "value": message left out')
        return
    else:
        collector.problem(index, f'"value" is {_kind(value)}, not text: left out')
        return
    collector.add(index, {"role": role, "content": text}, turn.get(_NEED_KEY))


def _genai_message(message: object, collector: _Collector, index: int) -> dict[str, Any] | None:
    """One OTel GenAI ``ChatMessage`` (``{"role", "parts": [...]}``) as a replay message."""
    if not isinstance(message, Mapping):
        collector.problem(index, f"a message must be an object, not {_kind(message)}")
        return None
    role = _role(message.get("role"), _OPENAI_ROLES, collector, index, "role")
    if role is None:
        return None
    parts = message.get("parts")
    if not isinstance(parts, list):
        what = "missing parts" if parts is None else f"parts is {_kind(parts)}, not an array"
        collector.problem(index, f"{what}: message left out")
        return None
    text, calls = _text_of_parts(parts, collector, index, genai=True)
    if text is None:
        collector.problem(index, "no text left: message left out")
        return None
    out: dict[str, Any] = {"role": role, "content": text}
    if calls and role == "assistant":
        out["tool_calls"] = calls
    return out


# --------------------------------------------------------------------------
# Files: framing and detection


@dataclass(slots=True)
class _Record:
    """One conversation's raw record: the JSON value, its line (JSON lines) and a default id."""

    value: Any
    line: int | None
    default_id: str


def _decode(data: bytes, source: str, problems: list[InputProblem]) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        problems.append(
            InputProblem(
                source,
                f"not UTF-8 (first bad byte at offset {error.start}): undecodable bytes "
                "read as U+FFFD",
            )
        )
        text = data.decode("utf-8", "replace")
    return text.removeprefix(_BOM)


def _json_lines(text: str, source: str) -> Iterator[tuple[int, Any, InputProblem | None]]:
    """(line number, value, None) per JSON line, or (line number, None, the problem)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line), None
        except (ValueError, RecursionError) as error:
            yield (
                number,
                None,
                InputProblem(source, f"not JSON ({_reason(error)}): line skipped", line=number),
            )


def _reason(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error).split(":")[0] if isinstance(error, json.JSONDecodeError) else str(error)


def detect_input_format(value: object) -> InputFormat | None:
    """The format of a parsed JSON value (a document, or one JSON line), or None.

    ``resourceSpans`` → ``otlp-json``; ``messages`` or ``role`` → ``openai``;
    ``conversations`` or ``from`` → ``sharegpt``. A list is judged by its first object.
    """
    if isinstance(value, list):
        first = next((item for item in value if isinstance(item, Mapping)), None)
        return detect_input_format(first) if first is not None else None
    if not isinstance(value, Mapping):
        return None
    if "resourceSpans" in value or "resource_spans" in value:
        return "otlp-json"
    if "messages" in value or "role" in value:
        return "openai"
    if "conversations" in value or "from" in value:
        return "sharegpt"
    return None


def _records(value: object, line: int | None, stem: str, position: int) -> Iterator[_Record]:
    """The conversation records of one parsed JSON value."""
    default = f"{stem}-{line if line is not None else position}"
    if (
        isinstance(value, list)
        and value
        and all(
            isinstance(item, Mapping) and ("role" in item or "from" in item) for item in value[:1]
        )
    ):
        yield _Record(value, line, stem if line is None else default)  # one conversation's messages
    elif isinstance(value, list):
        for offset, item in enumerate(value, start=1):
            yield _Record(item, line, f"{stem}-{offset}")
    else:
        yield _Record(value, line, default)


def _conversation(
    record: _Record,
    fmt: InputFormat,
    source: str,
    problems: list[InputProblem],
) -> Conversation | None:
    value = record.value
    if isinstance(value, list):  # a bare list of messages (or ShareGPT turns)
        body: object = {("messages" if fmt == "openai" else "conversations"): value}
    else:
        body = value
    if not isinstance(body, Mapping):
        problems.append(
            InputProblem(
                source,
                f"expected a conversation object, not {_kind(body)}: skipped",
                line=record.line,
            )
        )
        return None
    key = "messages" if fmt == "openai" else "conversations"
    cid = _clean_id(body.get("id", body.get("conversation_id"))) or record.default_id
    items = body.get(key)
    if not isinstance(items, list):
        what = f'no "{key}" array' if items is None else f'"{key}" is {_kind(items)}, not an array'
        problems.append(
            InputProblem(source, f"{what}: skipped", conversation=cid, line=record.line)
        )
        return None
    collector = _Collector(source, cid)
    reader = _openai_message if fmt == "openai" else _sharegpt_turn
    for index, item in enumerate(items):
        reader(item, collector, index)
    problems.extend(collector.problems)
    return collector.build()


def parse_conversations(
    data: bytes, *, source: str = "<input>", input_format: str = "auto"
) -> tuple[list[Conversation], list[InputProblem], str]:
    """Conversations in one file's bytes: (conversations, problems, the format read).

    ``input_format`` is ``auto`` or one of :data:`INPUT_FORMATS`. Raises
    :class:`ReplayError` when the bytes hold no readable conversation at all
    (not JSON, an unrecognized shape, a format that does not fit).
    """
    if input_format != "auto" and input_format not in INPUT_FORMATS:
        raise ReplayError(
            f"unknown input format {input_format!r}: choose auto, {', '.join(INPUT_FORMATS)}"
        )
    problems: list[InputProblem] = []
    if data[:2] == _GZIP_MAGIC:
        data = _gunzip(data, source)
    text = _decode(data, source, problems)
    stem = Path(source).name.split(".")[0] or "conversation"
    parsed: list[tuple[int | None, Any, InputProblem | None]]
    try:
        parsed = [(None, json.loads(text), None)] if text.strip() else []
    except (ValueError, RecursionError):
        parsed = list(_json_lines(text, source))
    values = [value for _, value, problem in parsed if problem is None]
    if not values:
        raise ReplayError(f"{source}: no JSON in it (expected {', '.join(INPUT_FORMATS)})")
    first = detect_input_format(values[0])
    fmt = input_format if input_format != "auto" else first
    if fmt == "otlp-json":
        # The OTLP reader frames and checks the lines itself (and reports bad ones).
        found, span_problems = _conversations_from_spans(data, source)
        return found, problems + span_problems, "otlp-json"
    if fmt is None:
        raise ReplayError(
            f"{source}: not a recognized conversation format (expected OpenAI messages, "
            "ShareGPT conversations or OTLP JSON spans); name it with --input-format"
        )
    conversations: list[Conversation] = []
    position = 0
    for line, value, bad_line in parsed:
        if bad_line is not None:
            problems.append(bad_line)
            continue
        for record in _records(value, line, stem, position + 1):
            position += 1
            record_format: InputFormat = fmt  # type: ignore[assignment]
            if input_format == "auto":
                detected = detect_input_format(record.value)
                if detected is not None and detected != "otlp-json":
                    record_format = detected
            conversation = _conversation(record, record_format, source, problems)
            if conversation is not None:
                conversations.append(conversation)
    return conversations, problems, str(fmt)


# --------------------------------------------------------------------------
# Recorded spans: GenAI calls, merged into conversations


@dataclass(frozen=True, slots=True)
class _Call:
    """One recorded model call: when, and its messages as the attribute text."""

    start: int
    end: int
    span_id: str
    input: str | None
    output: str | None
    system: str | None


def _message_key(raw: object) -> str:
    """What makes two GenAI messages the same message: role and parts (not finish_reason)."""
    if isinstance(raw, Mapping):
        return _json({"role": raw.get("role"), "parts": raw.get("parts")})
    return _json(raw)


def _calls_by_conversation(
    data: bytes, source: str, problems: list[InputProblem]
) -> dict[str, list[_Call]]:
    from ..decode.formats import ReadContext, get_format
    from ..decode.sources import ChainedReader, buffered
    from ..records import DEFAULT_LIMITS, Rejection, SpanRow

    calls: dict[str, list[_Call]] = {}
    rejected: Counter[str] = Counter()
    stream = buffered(ChainedReader(data, io.BytesIO()))
    context = ReadContext(source=source, limits=DEFAULT_LIMITS)
    for item in get_format("otlp-json").read(stream, context):
        if isinstance(item, Rejection):
            rejected[str(item.reason)] += 1
        elif isinstance(item, SpanRow):
            carriers = [item.attributes, *(event.attributes for event in item.events)]
            for attributes in carriers:
                given, produced = attributes.get(_INPUT_MESSAGES), attributes.get(_OUTPUT_MESSAGES)
                if given is None and produced is None:
                    continue
                cid = item.attributes.get(_CONVERSATION_ID) or f"trace-{item.trace_id}"
                calls.setdefault(cid, []).append(
                    _Call(
                        item.start_time_unix_nano,
                        item.end_time_unix_nano,
                        item.span_id,
                        given,
                        produced,
                        attributes.get(_SYSTEM_INSTRUCTIONS),
                    )
                )
    if rejected:
        reasons = ", ".join(f"{reason} ({count})" for reason, count in rejected.most_common())
        problems.append(
            InputProblem(
                source,
                f"{rejected.total()} span(s) could not be decoded and were skipped: {reasons} "
                "(recurscope validate says more)",
            )
        )
    return calls


def _parsed_messages(
    text: str | None, what: str, call: _Call, collector: _Collector
) -> list[object]:
    if text is None:
        return []
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        collector.problem(None, f"span {call.span_id}: {what} is not JSON ({_reason(error)})")
        return []
    if not isinstance(value, list):
        collector.problem(None, f"span {call.span_id}: {what} is {_kind(value)}, not an array")
        return []
    return value


def _conversation_from_calls(
    cid: str, calls: list[_Call], source: str
) -> tuple[Conversation, list[InputProblem]]:
    """Merge the calls' messages into one transcript, oldest call first.

    A call's input normally repeats the conversation so far: the messages
    after the longest known prefix are new. When a runtime trimmed or
    rewrote its history the input does not start with the transcript; then
    the messages after the latest transcript message found in it are new,
    and when none is found the whole input is (said in a problem).
    """
    collector = _Collector(source, _clean_id(cid) or "conversation")
    keys: list[str] = []

    def append(raw: object) -> None:
        position = len(keys)
        keys.append(_message_key(raw))
        message = _genai_message(raw, collector, position)
        if message is not None:
            need = raw.get(_NEED_KEY) if isinstance(raw, Mapping) else None
            collector.add(position, message, need)

    for call in sorted(calls, key=lambda c: (c.start, c.end, c.span_id)):
        if not keys and call.system:
            instructions = _parsed_messages(call.system, _SYSTEM_INSTRUCTIONS, call, collector)
            if instructions:
                append({"role": "system", "parts": instructions})
        given = _parsed_messages(call.input, _INPUT_MESSAGES, call, collector)
        new = [_message_key(raw) for raw in given]
        start = 0
        if new[: len(keys)] == keys:
            start = len(keys)
        elif keys:
            start = _after_latest_known(keys, new)
            if start < 0:
                collector.problem(
                    None,
                    f"span {call.span_id}: its input does not repeat the conversation so "
                    "far; its messages are appended as they are",
                )
                start = 0
        for raw in given[start:]:
            append(raw)
        for raw in _parsed_messages(call.output, _OUTPUT_MESSAGES, call, collector):
            append(raw)
    return collector.build(), collector.problems


def _after_latest_known(keys: list[str], new: list[str]) -> int:
    """Index in ``new`` just after the most recent transcript message it holds, or -1."""
    positions: dict[str, int] = {}
    for index, key in enumerate(new):
        positions[key] = index  # the last occurrence
    for key in reversed(keys):
        if key in positions:
            return positions[key] + 1
    return -1


def _conversations_from_spans(
    data: bytes, source: str
) -> tuple[list[Conversation], list[InputProblem]]:
    problems: list[InputProblem] = []
    by_conversation = _calls_by_conversation(data, source, problems)
    conversations: list[Conversation] = []
    for cid, calls in sorted(
        by_conversation.items(), key=lambda item: (min(c.start for c in item[1]), item[0])
    ):
        conversation, notes = _conversation_from_calls(cid, calls, source)
        conversations.append(conversation)
        problems.extend(notes)
    return conversations, problems


def _gunzip(data: bytes, source: str) -> bytes:
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = stream.read(MAX_INPUT_BYTES + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise ReplayError(f"{source}: gzip data is corrupt or cut off ({error})") from None
    if len(out) > MAX_INPUT_BYTES:
        raise ReplayError(
            f"{source}: over {MAX_INPUT_BYTES // (1024 * 1024)} MiB decompressed; split it"
        )
    return out


def _paths(paths: Iterable[str | Path]) -> Iterator[Path]:
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
                and p.name.endswith((".json", ".jsonl", ".ndjson", ".gz"))
            )
            yield from found
        else:
            yield path


def read_conversations(paths: Iterable[str | Path], *, input_format: str = "auto") -> ReadResult:
    """Read every conversation in ``paths`` (files, or folders of ``.json``/``.jsonl``/``.gz``).

    Conversation ids are made unique across the read: a repeated id gets
    ``#2``, ``#3``... and a problem saying so. A file that cannot be read is
    listed in ``failed`` and the others are still read.
    """
    conversations: list[Conversation] = []
    problems: list[InputProblem] = []
    formats: dict[str, str] = {}
    failed: list[tuple[str, str]] = []
    seen: Counter[str] = Counter()
    for path in _paths(paths):
        source = str(path)
        try:
            size = path.stat().st_size
            if size > MAX_INPUT_BYTES:
                raise ReplayError(
                    f"{source}: {size:,} bytes is over the {MAX_INPUT_BYTES:,}-byte limit; split it"
                )
            data = path.read_bytes()
            found, notes, fmt = parse_conversations(data, source=source, input_format=input_format)
        except OSError as error:
            failed.append((source, f"cannot be read: {error.strerror or error}"))
            continue
        except ReplayError as error:
            failed.append((source, str(error).removeprefix(f"{source}: ")))
            continue
        formats[source] = fmt
        problems.extend(notes)
        if not found:
            failed.append((source, "no conversation in it"))
        for conversation in found:
            seen[conversation.id] += 1
            if seen[conversation.id] > 1:
                unique = f"{conversation.id}#{seen[conversation.id]}"
                problems.append(
                    InputProblem(
                        source,
                        f"the id is used before: replayed as {_shown(unique)}",
                        conversation.id,
                    )
                )
                conversation = _renamed(conversation, unique)
            conversations.append(conversation)
    return ReadResult(tuple(conversations), tuple(problems), formats, tuple(failed))


def _renamed(conversation: Conversation, new_id: str) -> Conversation:
    return Conversation(
        id=new_id,
        orientation=conversation.orientation,
        messages=conversation.messages,
        needs=conversation.needs,
        message_numbers=conversation.message_numbers,
        source=conversation.source,
    )
