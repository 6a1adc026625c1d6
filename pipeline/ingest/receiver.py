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
(:mod:`recurscope.pipeline.store.locking`). A ``kill -9`` at any point loses no acknowledged span: the
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

The pieces: :mod:`.serve_config` (settings, defaults, counters),
:mod:`.bodies` (bodies to spans, and the answers), :mod:`.drainer` (spool to
store) and this module's :class:`Receiver`, which starts and stops them.
"""

from __future__ import annotations

import hmac
import logging
import math
from typing import TYPE_CHECKING

from ..errors import IngestError, PipelineError, StoreLockedError
from ..store.locking import (
    Upkeep,
    WriteSession,
    open_for_writing,
)
from .bodies import (
    body_failure,
    decode_body,
    media_type,
    rejection_counts,
    screen_origins,
    status_body,
    success_body,
)
from .drainer import Drainer
from .otlp_http import HttpServer, Reply, Request
from .serve_config import (
    DEFAULT_GRPC_PORT,
    DEFAULT_HOST,
    DEFAULT_PORT,
    ENCODINGS,
    JSON_TYPE,
    PROTOBUF_TYPES,
    TOKEN_ENV_VAR,
    TOO_LARGE,
    TRACES_PATH,
    ReceiverConfig,
    ReceiverStats,
)
from .spool import Spool, SpoolError

if TYPE_CHECKING:
    from .otlp_grpc import GrpcServer
_log = logging.getLogger("recurscope.serve")

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
        self._drainer: Drainer | None = None
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
            self._drainer = Drainer(config, spool, self.stats, "serve", self.upkeep)
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
        media = media_type(content_type)
        if media not in PROTOBUF_TYPES and media != JSON_TYPE:
            return self.refusal(
                request,
                415,
                f"Content-Type {content_type!r} is not supported: OTLP/HTTP uses "
                "application/x-protobuf or application/json",
            )
        encoding = request.headers.get("content-encoding", "").strip().lower()
        if encoding not in ENCODINGS:
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
            return self._answer(200, success_body(0, "", json_mode), json_mode)
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
        failure = body_failure(decoded)
        rejected, reasons = rejection_counts(decoded)
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
            status = 413 if failure.reason in TOO_LARGE else 400
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
        return self._answer(200, success_body(rejected, message, json_mode), json_mode)

    def refusal(self, request: Request, status: int, message: str) -> Reply:
        """A ``google.rpc.Status`` answer in the request's encoding."""
        if status >= 500 or status == 429:
            _log.info("%d: %s", status, message)
        else:
            _log.debug("%d: %s", status, message)
        json_mode = _json_mode(request)
        return self._answer(status, status_body(status, message, json_mode), json_mode)

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
        content_type = JSON_TYPE if json_mode else "application/x-protobuf"
        return Reply(status, body, {"Content-Type": content_type})


def _json_mode(request: Request) -> bool:
    return media_type(request.headers.get("content-type")) == JSON_TYPE


def _size_text(size: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:,.0f} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} GiB"  # pragma: no cover
