"""recurscope.pipeline: OpenTelemetry spans into DuckDB, and evidence out of it.

Install with the ``pipeline`` extra. The pieces:

- :mod:`.store` — the DuckDB file (``otel_traces``, ``ingest_log``,
  ``quarantine``), schema versions, locking (``docs/storage.md``);
- :mod:`.otlp` — OTLP JSON / protobuf requests to rows, and request bodies
  for the OTLP/HTTP receiver;
- :mod:`.formats` — file formats and their registry;
- :mod:`.ingest` — ``recurscope ingest`` (``docs/ingest.md``).
"""

from __future__ import annotations

from .decode.formats import (
    Format,
    ReadContext,
    detect_format,
    format_names,
    get_format,
    register_format,
)
from .decode.otlp import DecodedBody, decode_request_body
from .errors import (
    IngestError,
    PipelineError,
    PreregistrationError,
    SchemaVersionError,
    SpoolError,
    SpoolFullError,
    SpoolLockedError,
    StoreError,
    StoreLockedError,
    StoreUnavailableError,
    UnknownSessionError,
)
from .ingest.files import IngestReport, SourceReport, ingest
from .records import (
    DEFAULT_LIMITS,
    Checkpoint,
    DecodeLimits,
    EventRow,
    LinkRow,
    Position,
    Reason,
    Rejection,
    SpanRow,
)
from .store.database import (
    SCHEMA_VERSION,
    IngestRun,
    IngestSummary,
    Store,
    WriteResult,
    resolve_db_path,
)

__all__ = [
    "DEFAULT_LIMITS",
    "SCHEMA_VERSION",
    "Checkpoint",
    "DecodeLimits",
    "DecodedBody",
    "EventRow",
    "Format",
    "IngestError",
    "IngestReport",
    "IngestRun",
    "IngestSummary",
    "LinkRow",
    "PipelineError",
    "Position",
    "PreregistrationError",
    "ReadContext",
    "Reason",
    "Rejection",
    "SchemaVersionError",
    "SourceReport",
    "SpanRow",
    "SpoolError",
    "SpoolFullError",
    "SpoolLockedError",
    "Store",
    "StoreError",
    "StoreLockedError",
    "StoreUnavailableError",
    "UnknownSessionError",
    "WriteResult",
    "decode_request_body",
    "detect_format",
    "format_names",
    "get_format",
    "ingest",
    "register_format",
    "resolve_db_path",
]
