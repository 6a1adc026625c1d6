"""OTLP/HTTP request bodies (the receiver): gzip with bounds, the content type, the span cap."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import orjson

from ...errors import IngestError
from ...records import (
    DEFAULT_LIMITS,
    DecodeLimits,
    Position,
    Reason,
    Rejection,
    SpanRow,
)
from .json_request import decode_json_bytes
from .proto_request import decode_proto_bytes
from .values import too_many_spans


def _json_span_count(body: bytes) -> int | None:
    """Spans in an OTLP JSON request, or ``None`` when it does not parse (decoding says why)."""
    try:
        request = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    count = 0
    if not isinstance(request, dict):
        return None
    for resource in request.get("resourceSpans") or request.get("resource_spans") or ():
        if not isinstance(resource, dict):
            continue
        for scope in resource.get("scopeSpans") or resource.get("scope_spans") or ():
            if isinstance(scope, dict) and isinstance(scope.get("spans"), list):
                count += len(scope["spans"])
    return count


@dataclass(frozen=True, slots=True)
class DecodedBody:
    """What one OTLP/HTTP request body held: good rows and quarantined records.

    ``records`` is ``len(rows) + len(rejections)``; the store reconciles it
    against what it accepts, drops as duplicate and quarantines.
    """

    rows: tuple[SpanRow, ...]
    rejections: tuple[Rejection, ...]

    @property
    def records(self) -> int:
        return len(self.rows) + len(self.rejections)


def gunzip_bounded(data: bytes, limits: DecodeLimits) -> bytes | Rejection:
    """Decompress a (possibly multi-member) gzip body within the decompression caps."""
    out = bytearray()
    remaining = data
    while remaining:
        decompressor = zlib.decompressobj(wbits=31)
        pending = remaining
        try:
            while not decompressor.eof:
                # Bounded steps: a bomb is stopped after at most 1 MiB past the cap.
                chunk = decompressor.decompress(pending, 1 << 20)
                pending = decompressor.unconsumed_tail
                out += chunk
                if _over_limit(len(out), len(data), limits):
                    return Rejection(
                        Reason.DECOMPRESSION_LIMIT,
                        _limit_detail(len(out), len(data), limits),
                        data[: limits.excerpt_bytes],
                        Position(byte_offset=0),
                    )
                if not chunk and not pending and not decompressor.eof:
                    return Rejection(
                        Reason.TRUNCATED_GZIP,
                        f"gzip data ends before its end-of-stream marker "
                        f"(after {len(out)} decompressed bytes)",
                        data[: limits.excerpt_bytes],
                        Position(byte_offset=len(out)),
                    )
        except zlib.error as error:
            return Rejection(
                Reason.CORRUPT_GZIP,
                f"gzip data is corrupt: {error}",
                data[: limits.excerpt_bytes],
                Position(byte_offset=len(out)),
            )
        remaining = decompressor.unused_data
        # Zero padding after the last member is allowed, as gzip(1) allows it.
        if remaining.count(0) == len(remaining):
            break
    return bytes(out)


def _over_limit(produced: int, consumed: int, limits: DecodeLimits) -> bool:
    if produced > limits.max_decompressed_bytes:
        return True
    return produced > limits.ratio_grace_bytes and produced > limits.max_compression_ratio * max(
        consumed, 1
    )


def _limit_detail(produced: int, consumed: int, limits: DecodeLimits) -> str:
    return (
        f"decompressed output passed {produced} bytes from {consumed} compressed "
        f"(caps: {limits.max_decompressed_bytes} bytes, ratio {limits.max_compression_ratio:g}); "
        "a gzip bomb or a huge file: raise --max-decompressed-bytes / --max-compression-ratio "
        "if it is genuine"
    )


def decode_request_body(
    body: bytes,
    *,
    content_type: str,
    content_encoding: str | None = None,
    limits: DecodeLimits = DEFAULT_LIMITS,
) -> DecodedBody:
    """Decode an OTLP/HTTP ``/v1/traces`` body (protobuf or JSON, optionally gzip).

    Malformed content comes back as rejections; only an unsupported
    ``Content-Type`` or ``Content-Encoding`` raises :class:`IngestError` (the
    receiver answers 415 to those).
    """
    encoding = (content_encoding or "identity").strip().lower()
    if encoding == "gzip":
        unpacked = gunzip_bounded(body, limits)
        if isinstance(unpacked, Rejection):
            return DecodedBody((), (unpacked,))
        body = unpacked
    elif encoding != "identity":
        raise IngestError(
            f"Content-Encoding {content_encoding!r} is not supported: send gzip or no encoding."
        )
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type in ("application/x-protobuf", "application/protobuf"):
        items = list(decode_proto_bytes(body, limits=limits))
    elif media_type == "application/json":
        cap = limits.max_request_spans
        # Every span has a spanId (links do too: an over-estimate), so this
        # cheap count clears almost every request without a second parse.
        if cap is not None and body.count(b'"spanId"') + body.count(b'"span_id"') > cap:
            count = _json_span_count(body)
            if count is not None and count > cap:
                return DecodedBody((), (too_many_spans(count, limits, body),))
        items = list(decode_json_bytes(body, limits=limits))
    else:
        raise IngestError(
            f"Content-Type {content_type!r} is not supported: OTLP/HTTP uses "
            "application/x-protobuf or application/json."
        )
    rows = tuple(item for item in items if isinstance(item, SpanRow))
    rejections = tuple(item for item in items if isinstance(item, Rejection))
    return DecodedBody(rows, rejections)
