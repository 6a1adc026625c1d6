"""Shared machinery of the formats that convert a native (non-OTLP) shape.

Every native format works the same way: it turns each record of its source
into an OTLP JSON ``ExportTraceServiceRequest`` (a :class:`NativeUnit`) and
hands that to :func:`recurscope.pipeline.decode.otlp.iter_json_request`. Going
through OTLP JSON means the ids, limits, value encoding (``AsString``), time
checks and quarantine reasons are exactly those of the OTLP decoders — a
value converted from a Ruby log or a console dump is stored as the same text
an OTLP exporter's would be — and ``recurscope validate`` can type-check the
converted attributes the way it checks OTLP (the value kind is explicit).

Also here: an ISO 8601 / RFC 3339 parser that keeps nanoseconds, a JSON
parser that classifies failures like the OTLP one, and a streaming splitter
for concatenated (possibly pretty-printed) JSON objects, the framing of the
OTel console exporters.
"""

from __future__ import annotations

import calendar
import dataclasses
import io
import re
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from ...records import Checkpoint, DecodeLimits, Position, Reason, Rejection, SpanRow
from ..otlp import iter_json_request, parse_json_text
from ..sources import SourceDataError
from ._base import ReadContext, Reader, ReaderItem

__all__ = [
    "Malformed",
    "NativeItem",
    "NativeUnit",
    "any_value",
    "iter_json_objects",
    "key_values",
    "make_reader",
    "one_span_request",
    "parse_json",
    "parse_time_ns",
    "rows_from_unit",
]

_CHUNK: Final = 1 << 16
_TAIL_KEEP: Final = 4096
_WHITESPACE: Final = frozenset(b" \t\r\n")
# Inside an object only braces and string openers matter; inside a string only
# the closing quote and escapes. Searching with a regex keeps the splitter at C
# speed instead of a Python loop per byte.
_OBJECT_SCAN: Final = re.compile(rb'[{}"]')
_STRING_SCAN: Final = re.compile(rb'["\\]')
_NEXT_OBJECT_LINE: Final = re.compile(rb"\n[ \t]*\{")
_TIME_RE: Final = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9})\d*)?"
    r"(?:([Zz])|([+-])(\d{2}):?(\d{2}))?"
)


class Malformed(Exception):
    """A native record cannot be converted; carries the quarantine reason."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, slots=True)
class NativeUnit:
    """One native record converted to an OTLP JSON request (usually one span).

    ``excerpt`` is the native record's raw text, kept for quarantine rows so a
    rejected span shows what the source said rather than our conversion.
    """

    request: dict[str, Any]
    excerpt: bytes | str
    position: Position


NativeItem = NativeUnit | Rejection | Checkpoint
"""What a native format's unit iterator yields."""


# --------------------------------------------------------------------------
# Values.


def any_value(value: object, limits: DecodeLimits, depth: int = 0) -> dict[str, Any]:
    """A JSON-decoded Python value as an OTLP JSON ``AnyValue``.

    ``bool`` is tested before ``int`` (it is one in Python); lists become
    ``arrayValue``, objects ``kvlistValue``, ``None`` the empty value. Integers
    go as decimal strings, as OTLP JSON writes int64; out-of-range ones are
    rejected later by the OTLP decoder with its own reason.
    """
    if depth > limits.max_nesting_depth:
        raise Malformed(
            Reason.TOO_DEEPLY_NESTED,
            f"a value nests deeper than {limits.max_nesting_depth} levels",
        )
    if value is None:
        return {}
    if value is True or value is False:
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, list | tuple):
        return {"arrayValue": {"values": [any_value(v, limits, depth + 1) for v in value]}}
    if isinstance(value, dict):
        return {
            "kvlistValue": {
                "values": [
                    {"key": str(k), "value": any_value(v, limits, depth + 1)}
                    for k, v in value.items()
                ]
            }
        }
    raise Malformed(Reason.WRONG_TYPE, f"a value of type {type(value).__name__} is not JSON")


def key_values(mapping: Mapping[str, object], limits: DecodeLimits) -> list[dict[str, Any]]:
    """``{key: value}`` as an OTLP JSON attribute list (insertion order kept)."""
    return [{"key": key, "value": any_value(value, limits)} for key, value in mapping.items()]


def one_span_request(
    span: dict[str, Any],
    *,
    resource: list[dict[str, Any]] | None = None,
    scope: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An ``ExportTraceServiceRequest`` holding one span under its resource and scope."""
    scope_spans: dict[str, Any] = {"spans": [span]}
    if scope:
        scope_spans["scope"] = scope
    resource_spans: dict[str, Any] = {"scopeSpans": [scope_spans]}
    if resource:
        resource_spans["resource"] = {"attributes": resource}
    return {"resourceSpans": [resource_spans]}


# --------------------------------------------------------------------------
# Times.


def parse_time_ns(value: object, what: str) -> int:
    """An ISO 8601 / RFC 3339 time as nanoseconds since the epoch, all digits kept.

    Accepts ``2026-02-15T04:55:25.232Z`` (Recurgent), ``...25.232123Z``
    (OTel Python, microseconds), ``...25.232123456+01:00`` (Go RFC3339Nano)
    and a missing offset, read as UTC. Raises :class:`Malformed`.
    """
    if not isinstance(value, str):
        if value is None:
            raise Malformed(Reason.MISSING_TIMESTAMP, f"{what} is missing")
        raise Malformed(Reason.WRONG_TYPE, f"{what} must be a string (ISO 8601 time)")
    match = _TIME_RE.fullmatch(value.strip())
    if match is None:
        raise Malformed(Reason.INVALID_VALUE, f"{what} {value[:40]!r} is not an ISO 8601 time")
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    fraction = match.group(7) or ""
    try:
        # datetime validates the calendar (month 13, Feb 30); timegm alone would not.
        datetime(year, month, day, hour, minute, second)
    except ValueError as error:
        raise Malformed(Reason.INVALID_VALUE, f"{what} {value[:40]!r}: {error}") from None
    seconds = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    if match.group(9):
        offset = int(match.group(10)) * 3600 + int(match.group(11)) * 60
        seconds -= offset if match.group(9) == "+" else -offset
    nanos = seconds * 1_000_000_000 + int(fraction.ljust(9, "0"))
    if nanos <= 0:
        raise Malformed(
            Reason.TIMESTAMP_OUT_OF_RANGE,
            f"{what} {value[:40]!r} is not after 1970-01-01 (OTLP times are unsigned)",
        )
    return nanos


# --------------------------------------------------------------------------
# JSON text.


def parse_json(
    data: bytes, position: Position, limits: DecodeLimits, *, allow_constants: bool = False
) -> Any | Rejection:
    """Parsed JSON, or a :class:`Rejection` classified like the OTLP decoder's.

    ``allow_constants`` accepts bare ``NaN`` / ``Infinity`` (Python's
    ``json.dumps`` writes them; strict JSON and Go never do).
    """
    parsed = parse_json_text(data, position, limits, allow_constants=allow_constants)
    return parsed if isinstance(parsed, Rejection) else parsed[0]


# --------------------------------------------------------------------------
# Concatenated JSON objects.


class _Buffer:
    """The unread part of a stream, with its absolute offset, line count and hash."""

    def __init__(self, stream: io.BufferedReader, ctx: ReadContext) -> None:
        self.stream = stream
        self.data = bytearray()
        self.offset = ctx.start_offset  # absolute offset of data[0]
        self.line = ctx.start_line  # newlines before data[0]
        self.prefix = ctx.prefix_hash if ctx.resumable else None
        self.eof = False

    def fill(self) -> bool:
        """Read one more chunk; False at the end of the stream."""
        if self.eof:
            return False
        chunk = self.stream.read(_CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.data += chunk
        return True

    def consume(self, size: int) -> bytes:
        """Drop (and hash, and count the lines of) the first ``size`` bytes."""
        taken = bytes(self.data[:size])
        # Deleting from the front of a bytearray is O(1) in CPython.
        del self.data[:size]
        if self.prefix is not None:
            self.prefix.update(taken)
        self.line += taken.count(b"\n")
        self.offset += size
        return taken

    def checkpoint(self) -> Checkpoint | None:
        if self.prefix is None:
            return None
        return Checkpoint(self.offset, self.line, self.prefix)


def iter_json_objects(
    stream: io.BufferedReader, ctx: ReadContext
) -> Iterator[tuple[bytes, Position] | Rejection | Checkpoint]:
    """Split concatenated JSON objects (pretty-printed or not) without loading the stream.

    Yields ``(object bytes, position)`` per top-level object, a
    :class:`Rejection` for text between objects (one per run of such lines:
    a program's own prints mixed into its stdout), an object over
    ``max_record_bytes`` or one cut off at the end, and — for resumable
    sources — a :class:`Checkpoint` after each complete unit. An object must
    start a line (after blanks), as both console exporters write them, so a
    ``{`` inside a log line does not start one.
    """
    buffer = _Buffer(stream, ctx)
    limits = ctx.limits
    try:
        while True:
            # Blanks between objects belong to no record.
            index = 0
            while True:
                data = buffer.data
                while index < len(data) and data[index] in _WHITESPACE:
                    index += 1
                if index < len(data) or not buffer.fill():
                    break
            buffer.consume(index)
            if not buffer.data:
                return
            position = Position(line=buffer.line + 1, byte_offset=buffer.offset)
            complete = True
            if buffer.data[0] == 0x7B:  # "{"
                complete = yield from _one_object(buffer, position, limits)
            else:
                yield _stray_text(buffer, position, limits)
            checkpoint = buffer.checkpoint()
            # An object cut off at the end may still be being written: the
            # resume point stays before it, so the next run reads it whole.
            if checkpoint is not None and complete:
                yield checkpoint
    except SourceDataError as error:
        yield Rejection(
            error.reason,
            error.detail,
            b"",
            Position(line=buffer.line + 1, byte_offset=buffer.offset),
        )


def _one_object(
    buffer: _Buffer, position: Position, limits: DecodeLimits
) -> Generator[tuple[bytes, Position] | Rejection, None, bool]:
    """One object from the buffer's start; returns whether it ended before the stream did."""
    cap = limits.max_record_bytes
    depth = 0
    in_string = False
    index = 0
    excerpt: bytes | None = None  # set once the object is known to be over the cap
    skipped = 0
    while True:
        data = buffer.data
        if index >= len(data):
            if excerpt is None and len(data) > cap:
                excerpt = bytes(data[: limits.excerpt_bytes])
            if excerpt is not None:
                # Over the cap: keep scanning for the end, but hold nothing.
                skipped += len(data)
                buffer.consume(len(data))
                index = 0
            if not buffer.fill():
                break
            continue
        if in_string:
            match = _STRING_SCAN.search(data, index)
            if match is None:
                index = len(data)
            elif match.group() == b"\\":
                index = match.end() + 1  # skip the escaped byte, even if not read yet
            else:
                in_string = False
                index = match.end()
            continue
        match = _OBJECT_SCAN.search(data, index)
        if match is None:
            index = len(data)
            continue
        token = match.group()
        index = match.end()
        if token == b'"':
            in_string = True
        elif token == b"{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                if excerpt is not None or skipped + index > cap:
                    size = skipped + index
                    taken = buffer.consume(index)
                    yield Rejection(
                        Reason.RECORD_TOO_LARGE,
                        f"a JSON object of {size} bytes, over the {cap}-byte cap (raise it "
                        "with --max-record-bytes)",
                        excerpt if excerpt is not None else taken[: limits.excerpt_bytes],
                        position,
                    )
                    return True
                yield buffer.consume(index), position
                return True
    # The stream ended inside the object.
    size = skipped + len(buffer.data)
    if excerpt is not None:
        buffer.consume(len(buffer.data))
        yield Rejection(
            Reason.RECORD_TOO_LARGE,
            f"a JSON object of at least {size} bytes, over the {cap}-byte cap, and cut off",
            excerpt,
            position,
        )
        return False
    rest = buffer.consume(len(buffer.data))
    yield Rejection(
        Reason.TRUNCATED_JSON,
        "the last JSON object ends early: the output was cut off (or is still being written)",
        rest[: limits.excerpt_bytes],
        position,
    )
    return False


def _stray_text(buffer: _Buffer, position: Position, limits: DecodeLimits) -> Rejection:
    """Consume text up to the next line that opens an object; quarantine it as one record."""
    excerpt = b""
    size = 0

    def take(end: int) -> None:
        nonlocal excerpt, size
        taken = buffer.consume(end)
        if len(excerpt) < limits.excerpt_bytes:
            excerpt += taken[: limits.excerpt_bytes - len(excerpt)]
        size += len(taken)

    while True:
        match = _NEXT_OBJECT_LINE.search(buffer.data)
        if match is not None:
            take(match.start() + 1)
            break
        if not buffer.fill():
            take(len(buffer.data))
            break
        # Bounded memory for a long stretch of text: only a short tail can
        # still hold the start of the next object's line.
        if len(buffer.data) > 2 * _CHUNK:
            take(len(buffer.data) - _TAIL_KEEP)
    return Rejection(
        Reason.INVALID_JSON,
        f"{size} bytes of text that is not a JSON object (a line must open with '{{' to start "
        "one): output of the program mixed into the exporter's",
        excerpt,
        position,
    )


# --------------------------------------------------------------------------
# Units to rows.


def rows_from_unit(unit: NativeUnit, limits: DecodeLimits) -> Iterator[SpanRow | Rejection]:
    """The rows (or rejections) of one converted record, positioned at the native record."""
    for item in iter_json_request(
        unit.request,
        limits=limits,
        line=unit.position.line,
        byte_offset=unit.position.byte_offset,
        check_surrogates=True,
    ):
        if isinstance(item, Rejection):
            item = dataclasses.replace(item, excerpt=unit.excerpt)
        yield item


def make_reader(units: Callable[[io.BufferedReader, ReadContext], Iterator[NativeItem]]) -> Reader:
    """A format :data:`Reader` over a function that yields converted native records."""

    def read(stream: io.BufferedReader, ctx: ReadContext) -> Iterator[ReaderItem]:
        for item in units(stream, ctx):
            if isinstance(item, NativeUnit):
                yield from rows_from_unit(item, ctx.limits)
            else:
                yield item

    return read
