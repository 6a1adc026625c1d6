"""OTLP trace requests (JSON and protobuf) to :class:`SpanRow` records.

Two entry points per encoding: :func:`iter_json_request` walks a parsed OTLP
JSON ``ExportTraceServiceRequest`` and :func:`iter_proto_request` a protobuf
one; both yield a :class:`SpanRow` per good span and a :class:`Rejection` per
bad one, so one broken span never costs its neighbours. The receiver uses
:func:`decode_request_body` on raw HTTP bodies.

OTLP JSON is *not* proto3 canonical JSON: ids are hex, not base64, so
``google.protobuf.json_format`` would silently produce wrong ids. Everything
here reads the JSON by hand and accepts what the Collector accepts (see
``docs/ingest.md``). Values are encoded the way the Collector's ClickHouse
exporter writes them (``pcommon.Value.AsString``), see ``docs/storage.md``.

The modules, by job: :mod:`.values` (constants and the value encoding both
wire formats share), :mod:`.json_request`, :mod:`.proto_request` (with the
span count read from the wire) and :mod:`.body` (OTLP/HTTP bodies: gzip,
content type, the span cap).
"""

from __future__ import annotations

from .body import DecodedBody, decode_request_body, gunzip_bounded
from .json_request import (
    ParsedJson,
    decode_json_bytes,
    iter_json_request,
    iter_parsed_request,
    parse_json,
    parse_json_text,
)
from .proto_request import decode_proto_bytes, iter_proto_request, proto_span_count
from .values import SPAN_KIND_NAMES, STATUS_CODE_NAMES, Item, format_double, row_has_lone_surrogate

__all__ = [
    "SPAN_KIND_NAMES",
    "STATUS_CODE_NAMES",
    "DecodedBody",
    "Item",
    "ParsedJson",
    "decode_json_bytes",
    "decode_proto_bytes",
    "decode_request_body",
    "format_double",
    "gunzip_bounded",
    "iter_json_request",
    "iter_parsed_request",
    "iter_proto_request",
    "parse_json",
    "parse_json_text",
    "proto_span_count",
    "row_has_lone_surrogate",
]
