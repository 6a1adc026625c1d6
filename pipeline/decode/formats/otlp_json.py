"""OTLP JSON files: one ``ExportTraceServiceRequest`` per line, or one whole document.

JSON lines is what the Collector's file exporter and the OTel Python JSON
file exporter write; a single (possibly pretty-printed) document is what
people save by hand. The framing is decided from the first non-blank line: a
complete JSON object means lines. Lines stream with bounded memory and can
resume; a whole document is held in memory (up to ``max_record_bytes``).
"""

from __future__ import annotations

import hashlib
import io
import json
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from ...records import (
    Checkpoint,
    DecodeLimits,
    PendingRecord,
    Position,
    Reason,
    Rejection,
    SpanRow,
)
from ..otlp import ParsedJson, iter_parsed_request, parse_json
from ..sources import ChainedReader, SourceDataError, buffered
from ._base import Format, ReadContext, ReaderItem

__all__ = ["FORMAT", "decode_otlp_json_lines", "read_otlp_json", "sniff_otlp_json"]

_BOM: Final = b"\xef\xbb\xbf"
_DRAIN_CHUNK: Final = 1 << 20
_PROBE_LINES: Final = 200


@dataclass(slots=True)
class _State:
    offset: int
    line: int


def sniff_otlp_json(head: bytes, source_name: str) -> int:
    """2 for a JSON object naming ``resourceSpans``, 1 for any JSON object or empty input."""
    text = head.removeprefix(_BOM).lstrip()
    if not text:
        return 1
    if text[:1] == b"{":
        if b'"resourceSpans"' in head or b'"resource_spans"' in head:
            return 2
        return 1
    if source_name.lower().endswith((".json", ".jsonl", ".ndjson")):
        return 1
    return 0


def read_otlp_json(stream: io.BufferedReader, ctx: ReadContext) -> Iterator[ReaderItem]:
    """Rows, rejections and (for resumable sources) a checkpoint after each complete line."""
    state = _State(ctx.start_offset, ctx.start_line)
    try:
        if ctx.start_offset == 0:
            yield from _read_fresh(stream, ctx, state)
        else:
            yield from _read_lines(stream, ctx, state, None)
    except SourceDataError as error:
        yield Rejection(
            error.reason,
            error.detail,
            b"",
            Position(line=state.line + 1, byte_offset=state.offset),
        )


def _read_fresh(stream: io.BufferedReader, ctx: ReadContext, state: _State) -> Iterator[ReaderItem]:
    limits = ctx.limits
    cap = limits.max_record_bytes
    prefix = ctx.prefix_hash if ctx.resumable else None
    while True:
        raw = stream.readline(cap + 1)
        if not raw:
            return
        if not raw.endswith(b"\n") or not raw.isspace():
            break
        # Leading blank lines belong to the lines framing; keep offsets exact.
        state.offset += len(raw)
        state.line += 1
        if prefix is not None:
            prefix.update(raw)
            yield Checkpoint(state.offset, state.line, prefix)

    first = raw
    if len(first) > cap:
        yield from _read_after_oversize_first_line(stream, ctx, state, first)
        return
    parsed = parse_json(first, Position(line=state.line + 1, byte_offset=state.offset), limits)
    if not isinstance(parsed, Rejection) and isinstance(parsed.value, dict):
        yield from _read_lines(stream, ctx, state, (first, parsed))
        return

    # Not one JSON object on the first line: a pretty-printed document, or
    # JSON lines whose first line is broken. Buffer up to the cap to decide.
    budget = cap - len(first)
    rest = stream.read(budget + 1)
    whole = first + rest
    if len(rest) <= budget:
        parsed = parse_json(whole, Position(byte_offset=state.offset), limits)
        if not isinstance(parsed, Rejection):
            yield from iter_parsed_request(parsed, limits=limits, byte_offset=state.offset)
            return
        if not _later_line_is_object(whole):
            # One record, and it is bad: the document (or the only line).
            yield parsed
            return
    elif not _later_line_is_object(whole):
        _drain(stream)
        yield _document_too_large(ctx, whole, state.offset)
        return
    yield from _read_lines(buffered(ChainedReader(whole, stream)), ctx, state, None)


def _read_after_oversize_first_line(
    stream: io.BufferedReader, ctx: ReadContext, state: _State, first: bytes
) -> Iterator[ReaderItem]:
    """The first line alone is over the cap: one huge compact document, or JSON lines.

    The rest of the line is skipped in bounded memory. If nothing but blank
    lines follows, the line was the whole file: a document too large to
    parse, refused with how to split it. Otherwise the file is JSON lines:
    that line is quarantined and the lines after it are read as usual.
    """
    limits = ctx.limits
    cap = limits.max_record_bytes
    prefix = ctx.prefix_hash if ctx.resumable else None
    start = state.offset
    if prefix is not None:
        prefix.update(first)
    size, _ = _skip_rest_of_line(stream, first, prefix)
    blanks: list[bytes] = []
    following = stream.readline(cap + 1)
    while following.endswith(b"\n") and following.isspace():
        blanks.append(following)
        following = stream.readline(cap + 1)
    if not following:
        yield _document_too_large(ctx, first, start)
        return
    state.offset += size
    state.line += 1
    yield Rejection(
        Reason.RECORD_TOO_LARGE,
        f"line is {size} bytes, over the {cap}-byte cap (raise it with --max-record-bytes)",
        first[: limits.excerpt_bytes],
        Position(line=state.line, byte_offset=start),
    )
    if prefix is not None:
        yield Checkpoint(state.offset, state.line, prefix)
    for blank in blanks:
        state.offset += len(blank)
        state.line += 1
        if prefix is not None:
            prefix.update(blank)
            yield Checkpoint(state.offset, state.line, prefix)
    yield from _read_lines(stream, ctx, state, (following, None))


def _skip_rest_of_line(
    stream: io.BufferedReader, head: bytes, prefix: hashlib._Hash | None
) -> tuple[int, bool]:
    """Read past the rest of a line that began with ``head`` (already hashed), in
    bounded memory, hashing what it reads: (the line's size, whether it ended)."""
    size = len(head)
    complete = head.endswith(b"\n")
    while not complete:
        more = stream.readline(_DRAIN_CHUNK)
        if not more:
            break
        size += len(more)
        complete = more.endswith(b"\n")
        if prefix is not None:
            prefix.update(more)
    return size, complete


def _document_too_large(ctx: ReadContext, head: bytes, offset: int) -> Rejection:
    """A whole document over the cap, with a command that splits it into JSON lines."""
    cap = ctx.limits.max_record_bytes
    source = ctx.source
    if source.startswith("<"):  # <stdin>
        source, target = "FILE.json", "FILE.jsonl"
    else:
        target = source.removesuffix(".gz").removesuffix(".json") + ".split.jsonl"
    read = f"gunzip -c {shlex.quote(source)} | jq -c" if source.endswith(".gz") else "jq -c"
    path = "" if source.endswith(".gz") else " " + shlex.quote(source)
    return Rejection(
        Reason.RECORD_TOO_LARGE,
        f"a single JSON document over the {cap}-byte cap: it has to be parsed whole, so it "
        "is refused. Split it into one request per line, which streams in bounded memory: "
        f"{read} '.resourceSpans[] | {{resourceSpans: [.]}}'{path} > {shlex.quote(target)} "
        "(docs/ingest.md shows how to split one huge resource further), or raise "
        "--max-record-bytes",
        head[: ctx.limits.excerpt_bytes],
        Position(byte_offset=offset),
    )


def _later_line_is_object(data: bytes) -> bool:
    """Whether some line after the first is a complete JSON object (so: JSON lines)."""
    for index, line in enumerate(data.split(b"\n")[1:]):
        if index >= _PROBE_LINES:
            break
        body = line.strip()
        if body.startswith(b"{") and body.endswith(b"}"):
            try:
                if isinstance(json.loads(body), dict):
                    return True
            except (ValueError, RecursionError):
                continue
    return False


def _drain(stream: io.BufferedReader) -> None:
    while stream.read(_DRAIN_CHUNK):
        pass


def _read_lines(
    stream: io.BufferedReader,
    ctx: ReadContext,
    state: _State,
    first: tuple[bytes, ParsedJson | None] | None,
) -> Iterator[ReaderItem]:
    limits = ctx.limits
    cap = limits.max_record_bytes
    prefix = ctx.prefix_hash if ctx.resumable else None
    defer = ctx.defer
    pending = first
    while True:
        parsed: ParsedJson | Rejection | None = None
        if pending is not None:
            raw, parsed = pending
            pending = None
        else:
            raw = stream.readline(cap + 1)
            if not raw:
                return
        start = state.offset
        state.line += 1
        position = Position(line=state.line, byte_offset=start)
        complete = raw.endswith(b"\n")
        if prefix is not None:
            prefix.update(raw)
        if not complete and len(raw) > cap:
            size, complete = _skip_rest_of_line(stream, raw, prefix)
            state.offset += size
            yield Rejection(
                Reason.RECORD_TOO_LARGE,
                f"line is {size} bytes, over the {cap}-byte cap (raise it with --max-record-bytes)",
                raw[: limits.excerpt_bytes],
                position,
            )
        else:
            state.offset += len(raw)
            if not raw.isspace():
                if parsed is None and defer:
                    yield PendingRecord(raw, state.line, start)
                elif parsed is None:
                    parsed = parse_json(raw, position, limits)
                if parsed is None:
                    pass  # deferred
                elif isinstance(parsed, Rejection):
                    yield parsed
                else:
                    yield from iter_parsed_request(
                        parsed, limits=limits, line=state.line, byte_offset=start
                    )
        # An unterminated last line may still be being written: it is read
        # (and quarantined if cut off) but the resume point stays before it.
        if complete and prefix is not None:
            yield Checkpoint(state.offset, state.line, prefix)


def decode_otlp_json_lines(
    records: Sequence[PendingRecord], limits: DecodeLimits
) -> tuple[list[SpanRow], list[Rejection]]:
    """Deferred lines -> the rows and rejections :func:`read_otlp_json` yields for them."""
    rows: list[SpanRow] = []
    rejections: list[Rejection] = []
    for record in records:
        parsed = parse_json(
            record.data, Position(line=record.line, byte_offset=record.byte_offset), limits
        )
        if isinstance(parsed, Rejection):
            rejections.append(parsed)
            continue
        for item in iter_parsed_request(
            parsed, limits=limits, line=record.line, byte_offset=record.byte_offset
        ):
            if type(item) is SpanRow:
                rows.append(item)
            else:
                assert isinstance(item, Rejection)
                rejections.append(item)
    return rows, rejections


FORMAT: Final = Format(
    name="otlp-json",
    summary="OTLP JSON ExportTraceServiceRequest: one per line (Collector / OTel file "
    "exporters) or one whole document",
    read=read_otlp_json,
    sniff=sniff_otlp_json,
    resumable=True,
    decode=decode_otlp_json_lines,
)
