"""OTLP protobuf files: a binary ``ExportTraceServiceRequest`` per file.

Concatenated requests in one file also work: protobuf merges repeated fields
of concatenated messages, so their ``resource_spans`` simply add up. The file
is decoded whole (up to ``max_record_bytes``), as the wire format has no
record boundaries to stream on.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Final

from ...records import Position, Reason, Rejection
from ..otlp import decode_proto_bytes
from ..sources import SourceDataError
from ._base import Format, ReadContext, ReaderItem

__all__ = ["FORMAT", "read_otlp_proto", "sniff_otlp_proto"]

_EXTENSIONS: Final = (".pb", ".binpb", ".proto", ".protobuf", ".bin", ".otlp")
# Field tags that can open a ResourceSpans message: resource (1), scope_spans (2),
# schema_url (3), all length-delimited.
_RESOURCE_SPANS_TAGS: Final = frozenset({0x0A, 0x12, 0x1A})


def _varint(data: bytes, start: int) -> tuple[int, int] | None:
    value = shift = 0
    for index in range(start, min(start + 10, len(data))):
        byte = data[index]
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, index + 1
        shift += 7
    return None


def sniff_otlp_proto(head: bytes, source_name: str) -> int:
    """2 when the bytes open like ``resource_spans`` (field 1); 1 for a protobuf extension."""
    if head[:1] == b"\x0a":
        decoded = _varint(head, 1)
        if decoded is not None:
            length, after = decoded
            # A JSON file starting with a newline also begins with 0x0A; the
            # byte after the length tells them apart.
            if length == 0 or (after < len(head) and head[after] in _RESOURCE_SPANS_TAGS):
                return 2
    if head and source_name.lower().endswith(_EXTENSIONS):
        return 1
    return 0


def read_otlp_proto(stream: io.BufferedReader, ctx: ReadContext) -> Iterator[ReaderItem]:
    """Rows and rejections of the one request the file holds."""
    limits = ctx.limits
    cap = limits.max_record_bytes
    try:
        data = stream.read(cap + 1)
        if len(data) > cap:
            size = len(data)
            while chunk := stream.read(1 << 20):
                size += len(chunk)
            yield Rejection(
                Reason.RECORD_TOO_LARGE,
                f"protobuf file is {size} bytes, over the {cap}-byte cap (raise it with "
                "--max-record-bytes)",
                data[: limits.excerpt_bytes],
                Position(byte_offset=0),
            )
            return
    except SourceDataError as error:
        yield Rejection(error.reason, error.detail, b"", Position(byte_offset=0))
        return
    yield from decode_proto_bytes(data, limits=limits, byte_offset=0)


FORMAT: Final = Format(
    name="otlp-proto",
    summary="OTLP protobuf ExportTraceServiceRequest, one binary message per file",
    read=read_otlp_proto,
    sniff=sniff_otlp_proto,
)
