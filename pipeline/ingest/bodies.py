"""Request bodies to decoded spans and the answers OTLP/HTTP and OTLP/gRPC send back."""

from __future__ import annotations

import json
import logging
import zlib
from collections import Counter
from typing import TYPE_CHECKING, Final

from ...instrumentation import semconv as sc
from ..decode.otlp import DecodedBody, decode_request_body
from ..records import DecodeLimits, Position, Reason, Rejection, SpanRow
from ..store.rows import check_row
from .serve_config import BODY_FAILURES, GRPC_CODE

if TYPE_CHECKING:
    pass
_log = logging.getLogger("recurscope.serve")


def media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _inflate(body: bytes, limits: DecodeLimits) -> bytes | Rejection:
    """Undo ``Content-Encoding: deflate`` (zlib, or raw deflate as some clients send)."""
    for wbits in (zlib.MAX_WBITS, -zlib.MAX_WBITS):
        decompressor = zlib.decompressobj(wbits)
        out = bytearray()
        try:
            pending = body
            while pending:
                out += decompressor.decompress(pending, 1 << 20)
                pending = decompressor.unconsumed_tail
                if len(out) > limits.max_decompressed_bytes:
                    return Rejection(
                        Reason.DECOMPRESSION_LIMIT,
                        f"deflated body expands past {limits.max_decompressed_bytes} bytes "
                        "(--max-decompressed-bytes)",
                        body[: limits.excerpt_bytes],
                        Position(byte_offset=0),
                    )
            out += decompressor.flush()
        except zlib.error:
            continue
        return bytes(out)
    return Rejection(
        Reason.CORRUPT_GZIP,
        "Content-Encoding says deflate but the body does not inflate",
        body[: limits.excerpt_bytes],
        Position(byte_offset=0),
    )


def decode_body(
    body: bytes, content_type: str, content_encoding: str | None, limits: DecodeLimits
) -> DecodedBody:
    """Decode one ``/v1/traces`` body; raises :class:`IngestError` for unsupported headers."""
    encoding = (content_encoding or "").strip().lower()
    if encoding == "deflate":
        inflated = _inflate(body, limits)
        if isinstance(inflated, Rejection):
            return DecodedBody((), (inflated,))
        body, encoding = inflated, "identity"
    elif encoding == "x-gzip":
        encoding = "gzip"
    return decode_request_body(
        body, content_type=content_type, content_encoding=encoding or None, limits=limits
    )


def screen_origins(decoded: DecodedBody, accept_simulated: bool) -> DecodedBody:
    """Move spans of a non-observed ``recurscope.origin`` to rejections unless accepted."""
    if accept_simulated:
        return decoded
    kept: list[SpanRow] = []
    refused: list[Rejection] = []
    for row in decoded.rows:
        origin = row.resource_attributes.get(sc.ORIGIN, _OBSERVED)
        if origin == _OBSERVED:
            kept.append(row)
            continue
        refused.append(
            Rejection(
                Reason.ORIGIN_NOT_ACCEPTED,
                f"the resource says {sc.ORIGIN}={origin!r}: this receiver stores observed "
                "spans only (start recurscope serve with --accept-simulated to store simulated "
                "or replayed spans too)",
                json.dumps(row.as_json_dict(), ensure_ascii=False),
                row.position,
                trace_id=row.trace_id,
                span_id=row.span_id,
            )
        )
    if not refused:
        return decoded
    return DecodedBody(tuple(kept), (*decoded.rejections, *refused))


_OBSERVED: Final = "observed"


def body_failure(decoded: DecodedBody) -> Rejection | None:
    """The rejection that makes the whole body unreadable (answer 400/413), if any."""
    if decoded.rows:
        return None
    for rejection in decoded.rejections:
        if rejection.position.span_index is None and rejection.reason in BODY_FAILURES:
            return rejection
    return None


def rejection_counts(decoded: DecodedBody) -> tuple[int, Counter[str]]:
    """Spans that will land in quarantine: decoder rejections plus rows the store refuses."""
    reasons: Counter[str] = Counter(str(r.reason) for r in decoded.rejections)
    for row in decoded.rows:
        problem = check_row(row)
        if problem is not None:
            reasons[str(problem.reason)] += 1
    return sum(reasons.values()), reasons


def status_body(status: int, message: str, json_mode: bool) -> bytes:
    code = GRPC_CODE.get(status, 2)  # 2 = UNKNOWN
    if json_mode:
        return json.dumps({"code": code, "message": message}).encode()
    from google.rpc import status_pb2

    result: bytes = status_pb2.Status(code=code, message=message).SerializeToString()
    return result


def success_body(rejected: int, message: str, json_mode: bool) -> bytes:
    if json_mode:
        if not rejected:
            return b"{}"
        # proto3 JSON writes int64 as a decimal string.
        partial = {"rejectedSpans": str(rejected), "errorMessage": message}
        return json.dumps({"partialSuccess": partial}).encode()
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse,
    )

    response = ExportTraceServiceResponse()
    if rejected:
        response.partial_success.rejected_spans = rejected
        response.partial_success.error_message = message
    result: bytes = response.SerializeToString()
    return result
