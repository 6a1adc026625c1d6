"""Records that flow from decoders to the store.

A decoder turns bytes into a stream of :class:`SpanRow` (a span the store may
accept), :class:`Rejection` (a record that goes to quarantine) and, for
formats that can resume, :class:`Checkpoint`. Everything here is plain data:
the receiver, new formats and tests build these directly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

__all__ = [
    "DEFAULT_LIMITS",
    "EMPTY_ATTRIBUTES",
    "MAX_TIMESTAMP_NS",
    "Checkpoint",
    "DecodeLimits",
    "EventRow",
    "LinkRow",
    "PendingRecord",
    "Position",
    "Reason",
    "Rejection",
    "SpanRow",
]

MAX_TIMESTAMP_NS: Final = 2**63 - 2
"""Largest nanosecond timestamp ``TIMESTAMP_NS`` holds (2262-04-11T23:47:16.854775806).

DuckDB keeps ``2**63 - 1`` for ``infinity``; OTLP times are uint64 and can go
up to 2554, so larger values are quarantined rather than clamped.
"""


class _EmptyAttributes(Mapping[str, str]):
    """An immutable, hashable empty mapping (a dataclass default must be hashable)."""

    __slots__ = ()

    def __getitem__(self, key: str) -> str:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"


EMPTY_ATTRIBUTES: Final[Mapping[str, str]] = _EmptyAttributes()
"""Shared empty attribute map: most events, links and scopes have none."""


class Reason(StrEnum):
    """Why a record went to quarantine; the value is what the ``Reason`` column holds."""

    INVALID_JSON = "invalid_json"
    """The bytes are not JSON (syntax error)."""
    TRUNCATED_JSON = "truncated_json"
    """JSON that stops early: a line or document cut off mid-value."""
    INVALID_UTF8 = "invalid_utf8"
    """Bytes that are not UTF-8, or JSON escapes of lone surrogates."""
    WRONG_TYPE = "wrong_type"
    """A field has the wrong type (e.g. ``spans`` is a string)."""
    INVALID_ID = "invalid_id"
    """A trace or span id that is missing, not hex, the wrong length or all zero."""
    INVALID_VALUE = "invalid_value"
    """A number out of range, bad base64, an unknown enum name."""
    DUPLICATE_KEY = "duplicate_key"
    """A JSON object that names one key twice (``{"name": "a", "name": "b"}``): which value
    the sender meant is ambiguous, so neither is stored."""
    INVALID_PROTOBUF = "invalid_protobuf"
    """Bytes that do not decode as an ``ExportTraceServiceRequest``."""
    UNRECOGNIZED_FORMAT = "unrecognized_format"
    """Auto-detection found neither OTLP JSON nor OTLP protobuf."""
    RECORD_TOO_LARGE = "record_too_large"
    """A line, document or protobuf file larger than ``max_record_bytes``."""
    ATTRIBUTE_TOO_LARGE = "attribute_too_large"
    """An attribute value whose stored text exceeds ``max_attribute_bytes``."""
    TOO_DEEPLY_NESTED = "too_deeply_nested"
    """JSON or attribute values nested deeper than ``max_nesting_depth``."""
    MISSING_TIMESTAMP = "missing_timestamp"
    """A span whose start or end time is absent or zero."""
    TIMESTAMP_OUT_OF_RANGE = "timestamp_out_of_range"
    """A valid uint64 time beyond what ``TIMESTAMP_NS`` holds (after 2262-04-11)."""
    NEGATIVE_DURATION = "negative_duration"
    """A span that ends before it starts."""
    TRUNCATED_GZIP = "truncated_gzip"
    """A gzip stream that ends before its end-of-stream marker."""
    CORRUPT_GZIP = "corrupt_gzip"
    """Gzip data that fails to decompress or fails its CRC check."""
    DECOMPRESSION_LIMIT = "decompression_limit"
    """Decompressed output over ``max_decompressed_bytes`` or ``max_compression_ratio``."""
    ORIGIN_NOT_ACCEPTED = "origin_not_accepted"
    """A simulated or replayed span (``recurscope.origin``) sent to a receiver that takes
    observed spans only (``recurscope serve`` without ``--accept-simulated``)."""


@dataclass(frozen=True, slots=True)
class Position:
    """Where a record sits in its source; every field is optional.

    ``line`` is 1-based (JSON lines), ``byte_offset`` is the offset of the
    record's unit in the decompressed stream, ``span_index`` the 0-based index
    of the span within its unit (a line, a document, a protobuf message).
    """

    line: int | None = None
    byte_offset: int | None = None
    span_index: int | None = None


@dataclass(frozen=True, slots=True)
class EventRow:
    """A span event: ``time_unix_nano`` as sent (uint64 ns), name, encoded attributes."""

    time_unix_nano: int
    name: str
    attributes: Mapping[str, str] = EMPTY_ATTRIBUTES


@dataclass(frozen=True, slots=True)
class LinkRow:
    """A span link; ids are lower-case hex ('' when the sender left them empty)."""

    trace_id: str
    span_id: str
    trace_state: str = ""
    attributes: Mapping[str, str] = EMPTY_ATTRIBUTES


@dataclass(frozen=True, slots=True)
class SpanRow:
    """One decoded span, already in the store's value encoding.

    Invariants the decoders guarantee: ``trace_id`` is 32 and ``span_id`` 16
    lower-case hex digits, neither all zero; ``parent_span_id`` is 16 hex
    digits or ''; attribute maps are string to string in the ClickHouse
    exporter's encoding (see ``docs/storage.md``); ``kind`` and
    ``status_code`` are the exporter's strings ('Server', 'Error', ...).

    Times are the raw uint64 nanoseconds the sender wrote: the *store* decides
    whether its columns can hold them (and quarantines the row when not), so a
    receiver or a new decoder gets the same checks for free.
    """

    trace_id: str
    span_id: str
    parent_span_id: str
    name: str
    kind: str
    start_time_unix_nano: int
    end_time_unix_nano: int
    trace_state: str = ""
    service_name: str = ""
    resource_attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
    scope_name: str = ""
    scope_version: str = ""
    scope_attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
    attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
    status_code: str = "Unset"
    status_message: str = ""
    events: tuple[EventRow, ...] = ()
    links: tuple[LinkRow, ...] = ()
    position: Position = field(default=Position(), compare=False)

    def as_json_dict(self) -> dict[str, object]:
        """The row as JSON-able data, for quarantine excerpts and debugging."""
        return {
            "traceId": self.trace_id,
            "spanId": self.span_id,
            "parentSpanId": self.parent_span_id,
            "traceState": self.trace_state,
            "name": self.name,
            "kind": self.kind,
            "startTimeUnixNano": str(self.start_time_unix_nano),
            "endTimeUnixNano": str(self.end_time_unix_nano),
            "serviceName": self.service_name,
            "resourceAttributes": dict(self.resource_attributes),
            "scopeName": self.scope_name,
            "scopeVersion": self.scope_version,
            "scopeAttributes": dict(self.scope_attributes),
            "attributes": dict(self.attributes),
            "status": {"code": self.status_code, "message": self.status_message},
            "events": [
                {
                    "timeUnixNano": str(e.time_unix_nano),
                    "name": e.name,
                    "attributes": dict(e.attributes),
                }
                for e in self.events
            ],
            "links": [
                {
                    "traceId": link.trace_id,
                    "spanId": link.span_id,
                    "traceState": link.trace_state,
                    "attributes": dict(link.attributes),
                }
                for link in self.links
            ],
        }


@dataclass(frozen=True, slots=True)
class Rejection:
    """A record that goes to quarantine instead of ``otel_traces``.

    ``excerpt`` is the raw input (bytes or text); the store truncates it to
    ``DecodeLimits.excerpt_bytes``. ``trace_id``/``span_id`` are set when the
    decoder got that far, so a quarantined span can be found again.
    """

    reason: Reason
    detail: str
    excerpt: bytes | str = b""
    position: Position = Position()
    trace_id: str = ""
    span_id: str = ""


@dataclass(slots=True)
class Checkpoint:
    """A point a resumable decoder has fully consumed: everything before it is read.

    ``offset`` is the byte offset just past the last complete line, ``line``
    the number of lines before it, and ``prefix_hash`` the running sha256 of
    bytes ``[0, offset)``. The hash object is live: read its digest at once,
    before pulling the next item from the decoder.
    """

    offset: int
    line: int
    prefix_hash: hashlib._Hash


@dataclass(frozen=True, slots=True)
class PendingRecord:
    """One framed record a reader left undecoded, for its format's ``decode`` to turn
    into rows and rejections later (possibly in another process; see
    :mod:`recurscope.pipeline.ingest.parallel`). It counts as records only once decoded.

    ``data`` is the record's raw bytes; ``line`` and ``byte_offset`` locate it
    as :class:`Position` would.
    """

    data: bytes
    line: int
    byte_offset: int


@dataclass(frozen=True, slots=True)
class DecodeLimits:
    """Caps that keep hostile or broken input from exhausting memory.

    Each cap turns an over-limit record into a quarantine entry with its own
    reason; none of them stops the good records around it from landing.
    """

    max_record_bytes: int = 64 * 1024 * 1024
    """Largest JSON line, JSON document or protobuf file (a whole unit is held in memory)."""
    max_attribute_bytes: int = 1024 * 1024
    """Largest encoded attribute value; a span with a bigger one is quarantined."""
    max_decompressed_bytes: int = 16 * 1024 * 1024 * 1024
    """Largest decompressed size of one gzip source."""
    max_compression_ratio: float = 1000.0
    """Largest decompressed/compressed ratio once more than ``ratio_grace_bytes`` came out."""
    ratio_grace_bytes: int = 16 * 1024 * 1024
    """Output below this size is never judged by its ratio (small files compress very well)."""
    max_nesting_depth: int = 64
    """Deepest nesting of array/kvlist attribute values."""
    excerpt_bytes: int = 4096
    """How much raw input a quarantine row keeps."""
    max_request_spans: int | None = None
    """Most spans one OTLP/HTTP or gRPC request may hold (``recurscope serve``); ``None`` for files.

    Decoding holds every span of a request as a row at once (about 0.8 KB
    each): the cap bounds a request's memory, whatever its compression."""


DEFAULT_LIMITS: Final = DecodeLimits()
"""The limits used when a caller passes none."""
