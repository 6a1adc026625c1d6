"""``recurscope serve``: an OTLP trace receiver whose 200 means "on disk".

Any OpenTelemetry SDK or Collector can export spans to
``http://127.0.0.1:4318/v1/traces`` (OTLP/HTTP, protobuf or JSON, optionally
gzip or deflate) or to ``127.0.0.1:4317`` (OTLP/gRPC, :mod:`.otlp_grpc`: the
same processing, answered with a gRPC status). Each request is decoded (to
answer 400 for garbage and to count rejected spans in ``partial_success``),
appended to a durable spool (:mod:`.spool`) and ``fdatasync``\\ ed, and only
then acknowledged. A background drainer moves spooled requests into the
DuckDB store in large batches, holding the store only while it has work and
handing it over to ``recurscope ingest`` when that waits for it
(:mod:`.access`). A ``kill -9`` at any point loses no acknowledged span: the
next start replays the spool, and the store's identity (TraceId, SpanId) plus
a per-segment resume point make the replay exact. See ``docs/receiver.md``.

Responses follow the OTLP/HTTP specification: ``ExportTraceServiceResponse``
in the request's encoding on success (``partial_success`` counts spans that
went to quarantine), a ``google.rpc.Status`` body on errors, 503 with
``Retry-After`` when the spool is full or no processing slot frees up in
time. The transport (uvicorn, with connection, header, body and queue
limits) is :mod:`.otlp_http`; OTLP/gRPC on port 4317 is :mod:`.otlp_grpc`;
both hand requests to :meth:`Receiver.screen` and :meth:`Receiver.process`.
Over gRPC the same answers are OK with the same response, or a status code
(UNAVAILABLE with ``RetryInfo`` for 429/503).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import json
import logging
import math
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ...instrumentation import semconv as sc
from ..decode.otlp import DecodedBody, decode_request_body
from ..errors import IngestError, PipelineError, StoreLockedError
from ..records import DecodeLimits, Position, Reason, Rejection, SpanRow
from ..store.database import DEFAULT_DB_PATH, IngestRun, ResumeMark
from ..store.locking import (
    DEFAULT_SNAPSHOT_INTERVAL,
    Upkeep,
    WriteSession,
    companions,
    describe_holder,
    open_for_writing,
    waiting_writers,
)
from ..store.rows import check_row
from .otlp_http import HttpLimits, HttpServer, Reply, Request
from .spool import HEADER_SIZE, CorruptRegion, SegmentInfo, Spool, SpoolError, SpoolRecord

if TYPE_CHECKING:
    from .otlp_grpc import GrpcLimits, GrpcServer

__all__ = [
    "DEFAULT_GRPC_PORT",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "TOKEN_ENV_VAR",
    "TRACES_PATH",
    "Receiver",
    "ReceiverConfig",
    "ReceiverStats",
]

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

_PROTOBUF_TYPES: Final = frozenset({"application/x-protobuf", "application/protobuf"})
_JSON_TYPE: Final = "application/json"
_ENCODINGS: Final = frozenset({"", "identity", "gzip", "deflate", "x-gzip"})
_BODY_FAILURES: Final = frozenset(
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
_TOO_LARGE: Final = frozenset({Reason.RECORD_TOO_LARGE, Reason.DECOMPRESSION_LIMIT})
_FULL_BATCH_BYTES: Final = 4 * 1024 * 1024
"""Spooled bytes that hold about a full drain batch: drain at once, do not wait."""

# google.rpc.Code values for the Status bodies (the spec lets clients ignore them).
_GRPC_CODE: Final = {
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


# --------------------------------------------------------------------------
# Configuration and counters.


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


# --------------------------------------------------------------------------
# Bodies.


def _media_type(content_type: str | None) -> str:
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


def _body_failure(decoded: DecodedBody) -> Rejection | None:
    """The rejection that makes the whole body unreadable (answer 400/413), if any."""
    if decoded.rows:
        return None
    for rejection in decoded.rejections:
        if rejection.position.span_index is None and rejection.reason in _BODY_FAILURES:
            return rejection
    return None


def _rejected(decoded: DecodedBody) -> tuple[int, Counter[str]]:
    """Spans that will land in quarantine: decoder rejections plus rows the store refuses."""
    reasons: Counter[str] = Counter(str(r.reason) for r in decoded.rejections)
    for row in decoded.rows:
        problem = check_row(row)
        if problem is not None:
            reasons[str(problem.reason)] += 1
    return sum(reasons.values()), reasons


def _status_body(status: int, message: str, json_mode: bool) -> bytes:
    code = _GRPC_CODE.get(status, 2)  # 2 = UNKNOWN
    if json_mode:
        return json.dumps({"code": code, "message": message}).encode()
    from google.rpc import status_pb2

    result: bytes = status_pb2.Status(code=code, message=message).SerializeToString()
    return result


def _success_body(rejected: int, message: str, json_mode: bool) -> bytes:
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


# --------------------------------------------------------------------------
# The drainer: spool -> store.


@dataclass(slots=True)
class _SegmentRun:
    """Drain progress of one segment, mirrored by its ``ingest_log`` row
    (``ResumeOffset`` = ``offset``, ``ResumeLine`` = ``records``)."""

    source: str
    offset: int
    records: int
    digest: Any  # hashlib sha256 of the segment's bytes [0, offset)
    ingest_id: int | None = None
    finished: bool = False


class _Drainer:
    """Moves spooled requests into the store; the only thread that touches DuckDB.

    It holds the store while there is work and lets go when another writer
    waits (``recurscope ingest``: it hands over at once and waits until that
    writer has the file), when idle for ``idle_release`` seconds (so readers
    get the live file), and at shutdown. Every hold ends with a snapshot if
    data changed (:class:`~recurscope.pipeline.store.locking.WriteSession`).
    """

    def __init__(
        self,
        config: ReceiverConfig,
        spool: Spool,
        stats: ReceiverStats,
        name: str,
        upkeep: Upkeep | None = None,
    ) -> None:
        self.config = config
        self.spool = spool
        self.stats = stats
        self.name = name
        self.upkeep = upkeep
        self.session: WriteSession | None = None
        self.blocked_by: str | None = None
        """Who holds the store while the drainer waits for it (``None``: not waiting)."""
        self.rate = 0.0
        """Recent drain speed in spool bytes per second (for Retry-After)."""
        self._runs: dict[int, _SegmentRun] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="recurscope-drainer")
        self._last_work = time.monotonic()
        self._last_drain = 0.0
        self._failures = 0

    # -- lifecycle ---------------------------------------------------------

    def start(self, session: WriteSession | None) -> None:
        self.session = session
        self._thread.start()

    def stop(self, timeout: float) -> bool:
        """Stop the loop, store everything spooled (within ``timeout``); True if empty."""
        self._stop.set()
        self.spool.appended.set()
        self._thread.join()
        deadline = time.monotonic() + timeout
        with contextlib.suppress(SpoolError):
            self.spool.seal_active()
        while time.monotonic() < deadline:
            try:
                if self.session is None and not self._acquire(deadline - time.monotonic()):
                    continue
                self._drain(final=True)
                break
            except PipelineError as error:
                _log.error("could not store spooled spans: %s", error)
                self._release()
                time.sleep(min(1.0, max(deadline - time.monotonic(), 0.0)))
        self._release()
        return self.spool.backlog_bytes == 0

    # -- the loop ----------------------------------------------------------

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.spool.appended.wait(timeout=0.2)
            self.spool.appended.clear()
            if self._stop.is_set():
                break
            try:
                self._cycle()
                self._failures = 0
            except Exception as error:
                # The spool keeps the data: report, let go of the store, retry later.
                self._failures += 1
                if isinstance(error, PipelineError):
                    _log.error("could not store spooled spans (will retry): %s", error)
                else:  # pragma: no cover - a bug; keep serving, the spool is safe
                    _log.exception("drainer failed (will retry); spooled spans are kept")
                with contextlib.suppress(Exception):
                    self._release()
                self._stop.wait(min(0.5 * 2**self._failures, 30.0))

    def _cycle(self) -> None:
        segments = self.spool.segments()
        if any(_pending(info) for info in segments):
            self._last_work = time.monotonic()
            # Batch up: one transaction per drain_interval unless a full batch
            # is waiting. The store's anti-join costs per batch, not per span.
            wait = self._last_drain + self.config.drain_interval - time.monotonic()
            if wait > 0 and self.spool.backlog_bytes < _FULL_BATCH_BYTES:
                self._stop.wait(wait)
            if self.session is None and not self._acquire(0.5):
                return
            self._drain(final=False)
            self._last_drain = time.monotonic()
        session = self.session
        if session is None:
            return
        waiting = session.others_waiting()
        if waiting:
            _log.info("handing the store over to %s; spans are spooled meanwhile", waiting[0])
            self._release()
            self._await_hand_over()
            return
        idle = time.monotonic() - self._last_work
        if idle >= self.config.idle_release and session.release_due:
            # Quiet: let readers at the live file (closing publishes a snapshot).
            self._release()
            return
        session.maybe_publish()

    def _await_hand_over(self) -> None:
        """Wait until the writer we let go for has the store (or gave up), at most 5 s."""
        deadline = time.monotonic() + 5.0
        while (
            not self._stop.is_set()
            and time.monotonic() < deadline
            and waiting_writers(self.config.db_path)
        ):
            self._stop.wait(0.05)

    def _acquire(self, wait: float) -> bool:
        try:
            self.session = open_for_writing(
                self.config.db_path,
                kind="recurscope serve",
                lock_timeout=max(wait, 0.0),
                releases="on request",
                snapshot_interval=self.config.snapshot_interval,
                upkeep=self.upkeep,
                defer_creation=False,  # the lock errors below must come now
            )
        except StoreLockedError as error:
            holder = describe_holder(error)
            if self.blocked_by != holder:
                _log.info(
                    "waiting for %s to release %s; acknowledged spans stay in the spool",
                    holder,
                    self.config.db_path,
                )
            self.blocked_by = holder
            return False
        if self.blocked_by is not None:
            _log.info("%s is free again; storing the spool", self.config.db_path)
        self.blocked_by = None
        return True

    def _release(self) -> None:
        session = self.session
        if session is None:
            return
        self.session = None
        try:
            self._finish_drained(session)
        finally:
            try:
                session.close()
            except PipelineError as error:
                _log.error("closing the store: %s", error)

    # -- draining ------------------------------------------------------------

    def _drain(self, *, final: bool) -> None:
        session = self.session
        assert session is not None
        for info in self.spool.segments():
            run = self._run_for(session, info)
            complete = run.finished or run.offset >= info.durable_end
            if not complete:
                complete = self._drain_segment(session, info, run)
            if info.sealed and complete:
                self._finish_segment(session, info, run)
            if not final and session.others_waiting():
                return
        if not final:
            self._seal_if_drained()

    def _seal_if_drained(self) -> None:
        """Seal a fully stored active segment, so a quiet receiver leaves no file behind."""
        for info in self.spool.segments():
            if not info.sealed:
                run = self._runs.get(info.seq)
                if run is not None and HEADER_SIZE < run.offset == info.durable_end:
                    self.spool.seal_active(only_if_size=run.offset)

    def _finish_drained(self, session: WriteSession) -> None:
        """Close the log rows of stored segments and delete them (before letting go)."""
        self._seal_if_drained()
        for info in self.spool.segments():
            run = self._runs.get(info.seq)
            if run is not None and info.sealed and run.offset >= info.durable_end:
                self._finish_segment(session, info, run)

    def _run_for(self, session: WriteSession, info: SegmentInfo) -> _SegmentRun:
        run = self._runs.get(info.seq)
        if run is not None:
            return run
        source = f"{self.name} segment {info.segment_id}"
        offset, records, ingest_id, finished = HEADER_SIZE, 0, None, False
        if info.leftover:
            # Left by an earlier run: the store knows how far that one got, in
            # the same transactions as the spans, so nothing is stored twice.
            # Segments left by recurscope 0.1 were logged as 'otlp-http segment <id>'.
            rows = session.store.query(
                "SELECT IngestId, ResumeOffset, ResumeLine, Status FROM ingest_log "
                "WHERE Source IN (?, ?) ORDER BY IngestId DESC LIMIT 1",
                [source, f"otlp-http segment {info.segment_id}"],
            )
            if rows:
                ingest_id = int(str(rows[0][0]))
                if rows[0][1] is not None:
                    offset = int(str(rows[0][1]))
                records = int(str(rows[0][2] or 0))
                finished = rows[0][3] == "ok"
            self.stats.add(replayed_segments=1)
        digest = hashlib.sha256()
        _hash_range(info.path, 0, offset, digest)
        run = _SegmentRun(source, offset, records, digest, ingest_id, finished)
        self._runs[info.seq] = run
        self.spool.mark_drained(info.seq, offset)
        return run

    def _drain_segment(self, session: WriteSession, info: SegmentInfo, run: _SegmentRun) -> bool:
        """Store the segment's records from the run's offset; True if it reached the end."""
        rows: list[SpanRow] = []
        rejections: list[Rejection] = []
        batch_end = run.offset
        batch_records = 0
        started = time.monotonic()
        begin = run.offset
        complete = True
        for item in self.spool.read(info.seq, run.offset, info.durable_end):
            if isinstance(item, CorruptRegion):
                _log.error(
                    "spool segment %s: %d bytes at offset %d failed their checksum (%s); kept "
                    "in %s",
                    info.path.name,
                    item.end - item.offset,
                    item.offset,
                    item.detail,
                    self.spool.directory / "corrupt",
                )
                batch_end = item.end
                continue
            batch_records += 1
            decoded = self._decoded(item, run.records + batch_records)
            rows.extend(decoded.rows)
            rejections.extend(decoded.rejections)
            batch_end = item.end
            if len(rows) + len(rejections) >= self.config.batch_spans:
                self._commit(session, info, run, rows, rejections, batch_end, batch_records)
                rows, rejections, batch_records = [], [], 0
                if not self._stop.is_set() and session.others_waiting():
                    complete = False
                    break
        if complete and batch_end > run.offset:
            self._commit(session, info, run, rows, rejections, batch_end, batch_records)
        elapsed = time.monotonic() - started
        if run.offset > begin and elapsed > 0:
            current = (run.offset - begin) / elapsed
            self.rate = current if self.rate == 0 else 0.7 * self.rate + 0.3 * current
        return complete

    def _decoded(self, record: SpoolRecord, number: int) -> DecodedBody:
        decoded = record.attachment
        if not isinstance(decoded, DecodedBody):
            try:
                decoded = screen_origins(
                    decode_body(
                        record.body,
                        record.content_type,
                        record.content_encoding,
                        self.config.limits,
                    ),
                    self.config.accept_simulated,
                )
            except IngestError as error:
                rejection = Rejection(
                    Reason.UNRECOGNIZED_FORMAT,
                    str(error),
                    record.body[: self.config.limits.excerpt_bytes],
                )
                decoded = DecodedBody((), (rejection,))
        if not decoded.rejections:
            return decoded
        # Quarantine rows name the request: Line = its number in the segment.
        return DecodedBody(
            decoded.rows,
            tuple(
                dataclasses.replace(r, position=dataclasses.replace(r.position, line=number))
                for r in decoded.rejections
            ),
        )

    def _commit(
        self,
        session: WriteSession,
        info: SegmentInfo,
        run: _SegmentRun,
        rows: list[SpanRow],
        rejections: list[Rejection],
        end: int,
        records: int,
    ) -> None:
        store = session.store
        if run.ingest_id is None:
            run.ingest_id = store.begin_ingest(run.source, SPOOL_FORMAT).ingest_id
        # The run may have begun under an earlier hold (or process): continue its row.
        ingest_run = IngestRun(store, run.ingest_id, run.source, SPOOL_FORMAT)
        digest = run.digest.copy()
        _hash_range(info.path, run.offset, end, digest)
        # Spans, quarantine rows and the resume point commit together: a crash
        # after this and before the segment is deleted replays nothing twice.
        result = ingest_run.write(
            rows,
            rejections,
            bytes_read=end - HEADER_SIZE,
            resume=ResumeMark(end, run.records + records, digest.hexdigest()),
            limits=self.config.limits,
        )
        run.digest = digest
        run.offset = end
        run.records += records
        self.spool.mark_drained(info.seq, end)
        session.after_write()
        self.stats.add(
            spans_stored=result.accepted,
            duplicates=result.duplicates,
            quarantined=result.quarantined,
        )

    def _finish_segment(self, session: WriteSession, info: SegmentInfo, run: _SegmentRun) -> None:
        if run.ingest_id is not None and not run.finished:
            IngestRun(session.store, run.ingest_id, run.source, SPOOL_FORMAT).finish(
                "ok", checksum=run.digest.hexdigest(), bytes_read=run.offset - HEADER_SIZE
            )
            session.mark_dirty()
        run.finished = True
        self.spool.remove(info.seq)
        self._runs.pop(info.seq, None)


def _pending(info: SegmentInfo) -> bool:
    """Whether a segment still needs the drainer (records to store, or a file to delete)."""
    return info.drained is None or info.drained < info.durable_end or info.sealed


def _hash_range(path: Path, start: int, end: int, digest: Any) -> None:
    """Feed bytes ``[start, end)`` of ``path`` to ``digest``."""
    if end <= start:
        return
    with path.open("rb") as handle:
        handle.seek(start)
        remaining = end - start
        while remaining:
            chunk = handle.read(min(remaining, 1 << 20))
            if not chunk:
                break
            digest.update(chunk)
            remaining -= len(chunk)


# --------------------------------------------------------------------------
# The receiver: OTLP/HTTP (pipeline/ingest/otlp_http.py) and OTLP/gRPC
# (pipeline/ingest/otlp_grpc.py) in front of the spool.


class GrpcListenError(OSError):
    """The gRPC port could not be bound; the message says what to do instead."""

    def __init__(self, error: OSError, address: str) -> None:
        super().__init__(error.errno, error.strerror or str(error))
        self.address = address

    def __str__(self) -> str:
        return (
            f"cannot listen for OTLP/gRPC on {self.address}: {self.strerror}. Another "
            "receiver or collector may use that port: stop it, pick another with "
            "--grpc-port, or turn gRPC off with --no-grpc."
        )


class Receiver:
    """The receiver: HTTP and gRPC servers, spool and drainer. ``start()``, then ``stop()``.

    The transports (uvicorn, with connection, header, body and queue limits,
    in :mod:`.otlp_http`; grpcio in :mod:`.otlp_grpc`) only move bytes; this
    class decides what a request means: :meth:`screen` refuses from the
    headers (or gRPC metadata) alone, :meth:`process` decodes, spools
    (durably) and answers, in a worker thread. A gRPC call is handled as the
    OTLP/HTTP protobuf request it stands for.
    """

    def __init__(self, config: ReceiverConfig, *, upkeep: Upkeep | None = None) -> None:
        self.config = config
        self.upkeep = upkeep
        """Run on the store when the drainer's spans changed (``verdict.upkeep.EvidenceUpkeep``
        keeps the evidence current); ``None`` stores spans only."""
        self.stats = ReceiverStats()
        self.stopping = False
        self.spool: Spool | None = None
        self._http: HttpServer | None = None
        self._grpc: GrpcServer | None = None
        self._drainer: _Drainer | None = None
        self._token = config.token.encode() if config.token else None
        self.max_body_bytes = config.max_body_bytes

    @property
    def address(self) -> tuple[str, int]:
        """``(host, port)`` actually listened on (the port is real even with ``port=0``)."""
        assert self._http is not None
        return self._http.address

    @property
    def url(self) -> str:
        host, port = self.address
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}{TRACES_PATH}"

    @property
    def transport(self) -> HttpServer:
        """The HTTP server (its counters say what the limits refused)."""
        assert self._http is not None
        return self._http

    @property
    def grpc_address(self) -> tuple[str, int] | None:
        """``(host, port)`` of OTLP/gRPC (a real port even with 0); ``None`` when it is off."""
        return self._grpc.address if self._grpc is not None else None

    @property
    def grpc_endpoint(self) -> str | None:
        """``HOST:PORT`` to point gRPC exporters at (with ``insecure=True``); ``None`` when off."""
        address = self.grpc_address
        if address is None:
            return None
        host, port = address
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    def _bind_grpc(self) -> GrpcServer | None:
        """The gRPC server with its port bound (not serving yet), or ``None`` when off."""
        config = self.config
        port = config.grpc_bind_port
        if port is None:
            return None
        try:
            # Imported here: grpcio costs 0.1 s to import, and --no-grpc runs without it.
            from .otlp_grpc import GrpcServer
        except ImportError as error:
            raise PipelineError(
                f"OTLP/gRPC needs grpcio ({error}): pip install 'recurscope[pipeline]', or "
                "start recurscope serve with --no-grpc"
            ) from error
        try:
            return GrpcServer(self, config.host, port, config.grpc_limits)
        except OSError as error:
            shown = f"[{config.host}]" if ":" in config.host else config.host
            raise GrpcListenError(error, f"{shown}:{port}") from error

    def start(self) -> None:
        """Open the spool (replaying what an earlier run left) and start listening.

        Nothing is created before both ports are bound, and no spool before
        the store has opened: a taken port or a wrong ``--db`` leaves no file.
        Raises :class:`SpoolError` / :class:`StoreError` (schema problems) /
        ``OSError`` (port in use) with messages that say what to do.
        """
        config = self.config
        # Bind first: a taken port fails before anything is created.
        http = HttpServer(self, config.host, config.port, config.http_limits)
        try:
            grpc_server = self._bind_grpc()
        except BaseException:
            http.close()
            raise
        spool: Spool | None = None
        session: WriteSession | None = None
        serving = False
        try:
            # Then the store, so a wrong --db fails at start (not in the
            # background) and before a spool is created beside it; a store that
            # is merely busy is waited for later.
            busy: StoreLockedError | None = None
            try:
                session = open_for_writing(
                    config.db_path,
                    kind="recurscope serve",
                    lock_timeout=0,
                    releases="on request",
                    snapshot_interval=config.snapshot_interval,
                    upkeep=self.upkeep,
                    defer_creation=False,  # a listening receiver has a store to show
                )
            except StoreLockedError as error:
                busy = error
            spool = Spool.open(
                config.spool_path,
                segment_bytes=config.segment_bytes,
                attachment_budget=config.cache_spans,
            )
            self.spool = spool
            leftover = spool.backlog_bytes
            if leftover:
                _log.info(
                    "replaying %s of spooled requests left by an earlier run",
                    _size_text(leftover),
                )
            if busy is not None:
                _log.info(
                    "%s is busy (%s); spans are acknowledged into the spool and stored "
                    "when it is free",
                    config.db_path,
                    busy.holder_kind,
                )
            self._drainer = _Drainer(config, spool, self.stats, "serve", self.upkeep)
            self._drainer.start(session)
            self._http = http
            http.start()
            serving = True
            if grpc_server is not None:
                self._grpc = grpc_server
                grpc_server.start()
        except BaseException:
            if grpc_server is not None:
                grpc_server.close()
                self._grpc = None
            if serving:
                http.stop()
            else:
                http.close()
            if self._drainer is not None:
                self._drainer.stop(0)
                self._drainer = None
            elif session is not None:
                session.close()
            if spool is not None:
                spool.close()
            raise

    def stop(self) -> bool:
        """Stop accepting, finish in-flight requests, store the spool, close the store.

        Returns True when everything spooled reached the store (False: it stays
        in the spool and is stored at the next start).
        """
        self.stopping = True
        if self._grpc is not None:
            self._grpc.begin_stop()  # no new calls while HTTP finishes its requests
        if self._http is not None:
            self._http.stop()
        if self._grpc is not None:
            self._grpc.stop()
        empty = True
        if self._drainer is not None:
            empty = self._drainer.stop(self.config.shutdown_timeout)
        if self.spool is not None:
            self.spool.close()
        return empty

    # -- requests (called by the HTTP and gRPC transports) ------------------------

    def screen(self, request: Request) -> Reply | None:
        """Refuse what the headers already decide, before any of the body is read."""
        path = request.path
        if path != TRACES_PATH:
            hint = (
                "recurscope stores traces only; send metrics and logs elsewhere"
                if path in ("/v1/metrics", "/v1/logs")
                else f"recurscope serve accepts OTLP/HTTP POST {TRACES_PATH}"
            )
            return self.refusal(request, 404, f"{path} not found: {hint}")
        if request.method != "POST":
            reply = self.refusal(
                request,
                405,
                f"{request.method} is not allowed on {TRACES_PATH}: POST an "
                "ExportTraceServiceRequest",
            )
            reply.headers["Allow"] = "POST"
            return reply
        self.stats.add(requests=1)
        if self._token is not None:
            sent = request.headers.get("authorization", "")
            scheme, _, credentials = sent.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                credentials.strip().encode(), self._token
            ):
                reply = self.refusal(
                    request,
                    401,
                    "missing or wrong bearer token: send 'Authorization: Bearer <token>' "
                    f"(the token given to recurscope serve with --token or ${TOKEN_ENV_VAR})",
                )
                reply.headers["WWW-Authenticate"] = 'Bearer realm="recurscope"'
                reply.close = True
                return reply
        content_type = request.headers.get("content-type", "")
        media = _media_type(content_type)
        if media not in _PROTOBUF_TYPES and media != _JSON_TYPE:
            return self.refusal(
                request,
                415,
                f"Content-Type {content_type!r} is not supported: OTLP/HTTP uses "
                "application/x-protobuf or application/json",
            )
        encoding = request.headers.get("content-encoding", "").strip().lower()
        if encoding not in _ENCODINGS:
            return self.refusal(
                request,
                415,
                f"Content-Encoding {encoding!r} is not supported: send gzip, deflate or none",
            )
        length = request.content_length
        if not request.chunked:
            if length is None:
                reply = self.refusal(request, 411, "send a Content-Length (or chunked) body")
                reply.close = True
                return reply
            if length < 0:
                reply = self.refusal(
                    request, 400, f"bad Content-Length {request.headers['content-length']!r}"
                )
                reply.close = True
                return reply
            if length > self.config.max_body_bytes:
                self.stats.add(bad_requests=1)
                reply = self.refusal(
                    request,
                    413,
                    f"body of {length} bytes exceeds --max-body-bytes "
                    f"{self.config.max_body_bytes}; send smaller batches (e.g. "
                    "BatchSpanProcessor max_export_batch_size)",
                )
                reply.close = True
                return reply
        spool = self.spool
        assert spool is not None
        backlog = spool.backlog_bytes
        if backlog > self.config.max_backlog_bytes:
            self.stats.add(throttled=1)
            reply = self.refusal(
                request,
                503,
                f"{_size_text(backlog)} of spans wait to be stored (limit "
                f"{_size_text(self.config.max_backlog_bytes)}, --max-backlog-bytes); retry "
                "after the time given",
            )
            reply.headers["Retry-After"] = str(self.retry_after())
            return reply
        return None

    def process(self, request: Request, body: bytes) -> Reply:
        """Decode, spool durably, answer: a 200 means the spans survive a crash."""
        config = self.config
        json_mode = _json_mode(request)
        if not body:
            # An empty request carries no telemetry: success, nothing to store.
            return self._answer(200, _success_body(0, "", json_mode), json_mode)
        spool = self.spool
        assert spool is not None
        content_type = request.headers.get("content-type", "")
        encoding = request.headers.get("content-encoding", "").strip().lower()
        try:
            decoded = screen_origins(
                decode_body(body, content_type, encoding or None, config.limits),
                config.accept_simulated,
            )
        except IngestError as error:
            return self.refusal(request, 415, str(error))
        failure = _body_failure(decoded)
        rejected, reasons = _rejected(decoded)
        try:
            # Bad bodies are spooled too (not awaited): they land in the
            # quarantine table where an operator can see what was sent.
            ticket = spool.append(
                body,
                content_type=content_type,
                content_encoding=encoding or None,
                attachment=decoded,
                weight=decoded.records,
            )
            if failure is None:
                spool.commit(ticket)
        except SpoolError as error:
            self.stats.add(throttled=1)
            reply = self.refusal(request, 503, f"could not spool the request: {error}")
            reply.headers["Retry-After"] = str(config.retry_after_max)
            return reply
        if failure is not None:
            self.stats.add(bad_requests=1)
            status = 413 if failure.reason in _TOO_LARGE else 400
            return self.refusal(
                request,
                status,
                f"the body is not an OTLP ExportTraceServiceRequest ({failure.reason}): "
                f"{failure.detail}",
            )
        accepted = len(decoded.rows) + len(decoded.rejections) - rejected
        self.stats.add(spans_acknowledged=accepted, spans_rejected=rejected)
        message = ""
        if rejected:
            detail = ", ".join(f"{count} {reason}" for reason, count in reasons.most_common())
            message = (
                f"{rejected} of {decoded.records} spans rejected ({detail}); they are kept in "
                f"the quarantine table of {config.db_path} with the reason"
            )
        return self._answer(200, _success_body(rejected, message, json_mode), json_mode)

    def refusal(self, request: Request, status: int, message: str) -> Reply:
        """A ``google.rpc.Status`` answer in the request's encoding."""
        if status >= 500 or status == 429:
            _log.info("%d: %s", status, message)
        else:
            _log.debug("%d: %s", status, message)
        json_mode = _json_mode(request)
        return self._answer(status, _status_body(status, message, json_mode), json_mode)

    def retry_after(self) -> int:
        """Seconds to suggest: time to drain below the limit, within [1, retry_after_max]."""
        drainer = self._drainer
        top = self.config.retry_after_max
        backlog = self.spool.backlog_bytes if self.spool is not None else 0
        if drainer is None or drainer.blocked_by is not None or drainer.rate <= 0:
            return top
        excess = backlog - self.config.max_backlog_bytes / 2
        return max(1, min(top, math.ceil(excess / drainer.rate)))

    @staticmethod
    def _answer(status: int, body: bytes, json_mode: bool) -> Reply:
        content_type = _JSON_TYPE if json_mode else "application/x-protobuf"
        return Reply(status, body, {"Content-Type": content_type})


def _json_mode(request: Request) -> bool:
    return _media_type(request.headers.get("content-type")) == _JSON_TYPE


def _size_text(size: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:,.0f} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} GiB"  # pragma: no cover
