"""recurscope serve's settings (with their defaults and flags) and its counters."""

from __future__ import annotations

import dataclasses
import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ..records import DecodeLimits, Reason
from ..store.database import DEFAULT_DB_PATH
from ..store.locking import (
    DEFAULT_SNAPSHOT_INTERVAL,
    companions,
)
from .otlp_http import HttpLimits

if TYPE_CHECKING:
    from .otlp_grpc import GrpcLimits
_log = logging.getLogger("recurscope.serve")


DEFAULT_HOST: Final = "127.0.0.1"


DEFAULT_PORT: Final = 4318


DEFAULT_GRPC_PORT: Final = 4317


TRACES_PATH: Final = "/v1/traces"


TOKEN_ENV_VAR: Final = "RECURSCOPE_TOKEN"


GRPC_MIN_ADMITTED: Final = 64
"""gRPC calls admitted at once (each a thread and, at most, a message of ``--max-body-bytes``)."""


SPOOL_FORMAT: Final = "otlp"
"""``ingest_log.Format`` of a spool segment's run: OTLP/HTTP and OTLP/gRPC requests share it."""
"""Environment variable holding the bearer token clients must send (``--token``)."""


DEFAULT_MAX_BODY_BYTES: Final = 20 * 1024 * 1024
"""Largest request body as sent (the Collector's default ``max_request_body_size``)."""


DEFAULT_MAX_DECOMPRESSED_BYTES: Final = 64 * 1024 * 1024
"""Largest body after gzip/deflate (the Python exporter's own request cap)."""


DEFAULT_MAX_BACKLOG_BYTES: Final = 512 * 1024 * 1024
"""Spooled-but-not-stored bytes above which requests get 503 + Retry-After."""


DEFAULT_MAX_IN_FLIGHT: Final = 4
"""Requests decoded and spooled at once (worker threads); more wait their turn."""


DEFAULT_MAX_CONNECTIONS: Final = 256
"""Open connections; one beyond is closed as soon as it is accepted."""


DEFAULT_RETRY_AFTER_MAX: Final = 2
"""Longest ``Retry-After`` sent, in seconds. The Python exporter gives up when the
wait exceeds what is left of its 10 s timeout, and retries at most 5 times: a
1-2 s hint keeps it retrying for 5-8 s instead of dropping the batch."""


PROTOBUF_TYPES: Final = frozenset({"application/x-protobuf", "application/protobuf"})


JSON_TYPE: Final = "application/json"


ENCODINGS: Final = frozenset({"", "identity", "gzip", "deflate", "x-gzip"})


BODY_FAILURES: Final = frozenset(
    {
        Reason.INVALID_JSON,
        Reason.TRUNCATED_JSON,
        Reason.INVALID_PROTOBUF,
        Reason.INVALID_UTF8,
        Reason.WRONG_TYPE,
        Reason.INVALID_VALUE,
        Reason.TOO_DEEPLY_NESTED,
        Reason.CORRUPT_GZIP,
        Reason.TRUNCATED_GZIP,
        Reason.RECORD_TOO_LARGE,
        Reason.DECOMPRESSION_LIMIT,
        Reason.DUPLICATE_KEY,
    }
)


TOO_LARGE: Final = frozenset({Reason.RECORD_TOO_LARGE, Reason.DECOMPRESSION_LIMIT})


FULL_BATCH_BYTES: Final = 4 * 1024 * 1024
"""Spooled bytes that hold about a full drain batch: drain at once, do not wait."""


# google.rpc.Code values for the Status bodies (the spec lets clients ignore them).
GRPC_CODE: Final = {
    400: 3,  # INVALID_ARGUMENT
    401: 16,  # UNAUTHENTICATED
    404: 5,  # NOT_FOUND
    405: 12,  # UNIMPLEMENTED
    411: 3,
    413: 8,  # RESOURCE_EXHAUSTED
    415: 3,
    429: 8,
    500: 13,  # INTERNAL
    503: 14,  # UNAVAILABLE
}


@dataclass(frozen=True, slots=True)
class ReceiverConfig:
    """How ``recurscope serve`` runs; every field has a ``--flag`` of the same name."""

    db_path: Path = DEFAULT_DB_PATH
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    """0 picks a free port (printed when listening)."""
    grpc_port: int | None = DEFAULT_GRPC_PORT
    """OTLP/gRPC on the same host; 0 picks a free port, ``None`` turns gRPC off.

    With ``port=0`` the default 4317 becomes a free port too (see
    :attr:`grpc_bind_port`): whoever asks for a free HTTP port (tests, several
    receivers side by side) would otherwise collide on 4317."""
    spool_dir: Path | None = None
    """Default: beside the store (``data/recurscope.spool``)."""
    token: str | None = None
    """When set, requests need ``Authorization: Bearer <token>``."""
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_decompressed_bytes: int = DEFAULT_MAX_DECOMPRESSED_BYTES
    max_compression_ratio: float = 1000.0
    """Largest decompressed/compressed ratio past the first 16 MiB (a gzip bomb guard)."""
    max_request_spans: int = 100_000
    """Most spans in one request (413 beyond): decoding holds a request's spans at once."""
    max_backlog_bytes: int = DEFAULT_MAX_BACKLOG_BYTES
    max_in_flight: int = DEFAULT_MAX_IN_FLIGHT
    retry_after_max: int = DEFAULT_RETRY_AFTER_MAX
    batch_spans: int = 10_000
    """Spans per store transaction when draining."""
    idle_release: float = 1.0
    """Seconds without new spans after which the drainer lets go of the store."""
    drain_interval: float = 0.25
    """Least time between two drain transactions unless a full batch waits."""
    snapshot_interval: float = DEFAULT_SNAPSHOT_INTERVAL
    shutdown_timeout: float = 60.0
    """On SIGTERM, how long to keep trying to store the spool before leaving it for next time."""
    cache_spans: int = 200_000
    """Decoded spans kept in memory for the drainer (beyond that it decodes again)."""
    segment_bytes: int = 64 * 1024 * 1024
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    header_timeout: float = 10.0
    """Seconds for a connection to send a complete request line and headers."""
    body_timeout: float = 30.0
    """Seconds for a whole request body to arrive (a trickling client gets 408)."""
    keep_alive_timeout: float = 30.0
    """Seconds an idle keep-alive connection is kept (the Collector's idle timeout is 90 s)."""
    queue_timeout: float = 5.0
    """Seconds a read request waits for a processing slot before 503 + Retry-After."""
    max_buffered_bytes: int = 256 * 1024 * 1024
    """Bytes of request bodies held in memory at once, across all connections."""
    accept_simulated: bool = False
    """Store spans whose resource says ``recurscope.origin`` is not ``observed``.

    Off by default: a receiver is where observed evidence arrives, and a
    simulator or replay pointed at it by mistake would mix demonstration
    spans into it. Refused spans are quarantined (``origin_not_accepted``)
    and counted in the response's partial success."""

    @property
    def http_limits(self) -> HttpLimits:
        return HttpLimits(
            max_connections=self.max_connections,
            header_timeout=self.header_timeout,
            keep_alive_timeout=self.keep_alive_timeout,
            body_timeout=self.body_timeout,
            max_body_bytes=self.max_body_bytes,
            max_buffered_bytes=self.max_buffered_bytes,
            max_in_flight=self.max_in_flight,
            queue_timeout=self.queue_timeout,
        )

    @property
    def grpc_bind_port(self) -> int | None:
        """The gRPC port to bind: :attr:`grpc_port`, or 0 when it is the default and ``port=0``."""
        if self.grpc_port == DEFAULT_GRPC_PORT and self.port == 0:
            return 0
        return self.grpc_port

    @property
    def grpc_limits(self) -> GrpcLimits:
        from .otlp_grpc import GrpcLimits

        return GrpcLimits(
            max_message_bytes=self.max_body_bytes,
            max_in_flight=self.max_in_flight,
            # One pool thread per admitted call (it reads the message, then waits
            # for a slot in turn). Enough of them that a flood of callers that
            # never back off still leaves a well-behaved exporter a place in the
            # queue (refused calls retry at once and would take every freed place).
            max_rpcs=max(GRPC_MIN_ADMITTED, 4 * self.max_in_flight),
            queue_timeout=self.queue_timeout,
            message_timeout=self.body_timeout,
            handshake_timeout=self.header_timeout,
            # At shutdown a call gets as long to finish as an HTTP body has to arrive.
            shutdown_grace=self.body_timeout,
        )

    @property
    def limits(self) -> DecodeLimits:
        return DecodeLimits(
            max_record_bytes=self.max_decompressed_bytes,
            max_decompressed_bytes=self.max_decompressed_bytes,
            max_compression_ratio=self.max_compression_ratio,
            max_request_spans=self.max_request_spans,
        )

    @property
    def spool_path(self) -> Path:
        return self.spool_dir if self.spool_dir is not None else companions(self.db_path).spool


@dataclass(slots=True)
class ReceiverStats:
    """Counters since start (read them under :attr:`lock`)."""

    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    requests: int = 0
    spans_acknowledged: int = 0
    spans_rejected: int = 0
    bad_requests: int = 0
    throttled: int = 0
    spans_stored: int = 0
    duplicates: int = 0
    quarantined: int = 0
    replayed_segments: int = 0

    def add(self, **counts: int) -> None:
        with self.lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)

    def snapshot(self) -> dict[str, int]:
        with self.lock:
            return {
                f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "lock"
            }
