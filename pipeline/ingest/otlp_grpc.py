"""OTLP/gRPC on grpcio: the second transport of ``recurscope serve``.

``opentelemetry.proto.collector.trace.v1.TraceService/Export`` is answered by
the same handler as OTLP/HTTP (:class:`~recurscope.pipeline.ingest.otlp_http.Handler`,
i.e. the :class:`~recurscope.pipeline.ingest.receiver.Receiver`): each call becomes
the OTLP/HTTP request it stands for, ``Request("POST", "/v1/traces", ...)``
with the protobuf content type and the call's ``authorization`` metadata,
goes through ``screen`` (token first, then length and backlog) and
``process`` (decode, spool with ``fdatasync``, answer), and the HTTP status
of the reply becomes a gRPC status. So an OK, like a 200, means the spans are
on disk.

grpcio never parses the message: the method is registered with a
pass-through deserializer, so ``process`` gets the serialized
``ExportTraceServiceRequest`` (gzip already undone by grpcio) and decodes it
once, exactly as it does an HTTP body; its ``ExportTraceServiceResponse``
bytes (``partial_success`` included) are sent back as they are.

What grpcio owns: HTTP/2, flow control, gzip, and the message size limit
(``grpc.max_receive_message_length``, checked *after* decompression; larger
gets RESOURCE_EXHAUSTED before any handler runs). What this module adds:

- **the port is bound without SO_REUSEPORT**: grpcio sets it by default on
  Linux, so a second receiver on a taken port would bind silently and share
  its connections; here it fails with ``OSError`` like the HTTP socket does;
- **a cap on RPCs admitted at once** (``max_rpcs``), which bounds the
  messages held in memory. The method is served as *request-streaming* (on
  the wire a unary call is a stream of one message), so the handler runs
  before the message is read and a call beyond the cap is answered
  UNAVAILABLE with ``RetryInfo`` without reading it — retryable, unlike the
  bare RESOURCE_EXHAUSTED grpcio's own ``maximum_concurrent_rpcs`` sends
  (which OTLP exporters drop). The pool has a thread per admitted call plus
  ``_REFUSAL_THREADS`` that only ever refuse, so refusals never wait behind
  admitted calls; grpcio's cap stays as an outer bound
  (``_OUTER_RPC_FACTOR`` × ``max_rpcs``) on calls queued for those threads. A
  client slow to send its message holds an admitted call, never a
  processing slot;
- **processing slots** (``max_in_flight``, waited for at most
  ``queue_timeout``), as for HTTP: decoding and the spool's ``fdatasync`` run
  at most that many at a time; a call that waits longer gets UNAVAILABLE with
  a retry delay computed from the backlog;
- **retry delays the exporters read**: UNAVAILABLE carries ``RetryInfo``
  twice in the trailing metadata, in the ``google.rpc.Status`` of
  ``grpc-status-details-bin`` (what the Go exporter and the Collector read)
  and alone in ``google.rpc.retryinfo-bin`` (what the Python exporter reads).
"""

from __future__ import annotations

import contextlib
import errno
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final, NoReturn

import grpc
from google.protobuf import duration_pb2
from google.rpc import error_details_pb2, status_pb2

from .otlp_http import Handler, Reply, Request, slots_busy

__all__ = ["EXPORT_METHOD", "GrpcLimits", "GrpcServer"]

_SERVICE: Final = "opentelemetry.proto.collector.trace.v1.TraceService"
EXPORT_METHOD: Final = f"/{_SERVICE}/Export"
"""The one method served (metrics and logs services answer UNIMPLEMENTED)."""
_TRACES_PATH: Final = "/v1/traces"
"""The OTLP/HTTP path an ``Export`` call stands for when it reaches the handler."""
_PROTOBUF: Final = "application/x-protobuf"
_REFUSAL_THREADS: Final = 4
"""Pool threads beyond ``max_rpcs``: admitted calls never occupy them all."""
_OUTER_RPC_FACTOR: Final = 8
"""grpcio's own cap (bare RESOURCE_EXHAUSTED) sits this many times above ``max_rpcs``."""

# HTTP status of the handler's reply -> gRPC status. UNAVAILABLE is the code
# OTLP/gRPC clients retry; the others say "do not send this again".
_CODES: Final = {
    400: grpc.StatusCode.INVALID_ARGUMENT,
    401: grpc.StatusCode.UNAUTHENTICATED,
    413: grpc.StatusCode.RESOURCE_EXHAUSTED,
    429: grpc.StatusCode.UNAVAILABLE,
    503: grpc.StatusCode.UNAVAILABLE,
}


@dataclass(frozen=True, slots=True)
class GrpcLimits:
    """The transport's limits, derived from ``recurscope serve``'s flags."""

    max_message_bytes: int = 20 * 1024 * 1024
    """Largest message after decompression (``--max-body-bytes``)."""
    max_in_flight: int = 8
    """Calls decoded and spooled at once (``--max-in-flight``)."""
    max_rpcs: int = 32
    """Calls admitted at once (processing, waiting for a slot, or receiving their message)."""
    queue_timeout: float = 5.0
    """Seconds a received call waits for a processing slot before UNAVAILABLE."""
    message_timeout: float = 30.0
    """Seconds an admitted call has for its message to arrive (``--body-timeout``)."""
    handshake_timeout: float = 10.0
    """Seconds a new connection has to complete the HTTP/2 handshake."""
    shutdown_grace: float = 30.0
    """Seconds calls in flight get to finish at shutdown before they are cancelled."""


class _Counters:
    """Transport events, for logs and tests."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queue_timeouts = 0
        self.calls_refused = 0
        self.message_timeouts = 0


class GrpcServer:
    """A grpcio server for ``TraceService/Export`` on a port bound here.

    The constructor binds (``OSError`` when the port is taken) and serves
    nothing yet: the handler is registered by :meth:`start`, so a server
    closed before it starts never calls the handler.
    """

    def __init__(self, handler: Handler, host: str, port: int, limits: GrpcLimits) -> None:
        self.handler = handler
        self.limits = limits
        self.counters = _Counters()
        self.pool = ThreadPoolExecutor(
            limits.max_rpcs + _REFUSAL_THREADS, thread_name_prefix="recurscope-grpc"
        )
        self._admitted = threading.BoundedSemaphore(limits.max_rpcs)
        self._slots = threading.BoundedSemaphore(limits.max_in_flight)
        self._server = grpc.server(
            self.pool,
            maximum_concurrent_rpcs=limits.max_rpcs * _OUTER_RPC_FACTOR,
            options=[
                ("grpc.so_reuseport", 0),
                ("grpc.max_receive_message_length", limits.max_message_bytes),
                ("grpc.server_handshake_timeout_ms", int(limits.handshake_timeout * 1000)),
            ],
        )
        self.host = host
        try:
            self.port = self._bind(host, port)
        except BaseException:
            self.pool.shutdown(wait=False)
            raise
        self._started = False
        self._stopping: threading.Event | None = None

    def _bind(self, host: str, port: int) -> int:
        if port:
            # grpcio says only "Failed to bind" (and logs an error line on
            # stderr); a plain socket, bound as grpcio binds, tells why first.
            _try_bind(host, port)
        shown = f"[{host}]" if ":" in host else host
        try:
            bound: int = self._server.add_insecure_port(f"{shown}:{port}")
        except RuntimeError:
            raise OSError(errno.EADDRINUSE, "grpcio could not bind the address") from None
        return bound

    @property
    def address(self) -> tuple[str, int]:
        """``(host, port)`` listened on (the port is real even when 0 was asked for)."""
        return self.host, self.port

    def start(self) -> None:
        self._server.add_generic_rpc_handlers(
            (
                grpc.method_handlers_generic_handler(
                    _SERVICE,
                    {
                        # No (de)serializers: the message arrives and leaves as bytes.
                        # Request-streaming so the handler runs before the message is
                        # read (a unary call is a one-message stream on the wire).
                        "Export": grpc.stream_unary_rpc_method_handler(self._export),
                    },
                ),
            )
        )
        self._server.start()
        self._started = True

    def begin_stop(self) -> None:
        """Refuse new calls at once; calls in flight go on (see :meth:`stop`)."""
        if self._stopping is None:
            self._stopping = self._server.stop(self.limits.shutdown_grace)

    def stop(self) -> None:
        """Refuse new calls, let those in flight finish (within the grace), release the port.

        A call cancelled at the end of the grace still finishes spooling in its
        thread (the pool is waited for), so nothing half-done is left behind;
        its client, told CANCELLED, sends again and the store counts a duplicate.
        """
        self.begin_stop()
        assert self._stopping is not None
        self._stopping.wait()
        self.pool.shutdown(wait=True)

    def close(self) -> None:
        """Release the port of a server that never started (``Receiver.start`` failed)."""
        if not self._started:
            # grpcio lets go of a bound port only when a started server stops;
            # no handler is registered yet, so nothing is served meanwhile.
            self._server.start()
            self._started = True
        self.stop()

    # -- a call ------------------------------------------------------------------

    def _export(self, messages: Iterator[bytes], context: grpc.ServicerContext) -> bytes:
        """Admit, read the message, screen, wait for a slot, process.

        An OK answer is the handler's response bytes. A call beyond ``max_rpcs``
        is refused before its message is read.
        """
        # The message's length is not known before it is read (grpcio enforces
        # its limit): screened like a chunked HTTP body — token and backlog first.
        headers = {"content-type": _PROTOBUF, "transfer-encoding": "chunked"}
        tokens = [str(v) for k, v in context.invocation_metadata() if k == "authorization"]
        if tokens:
            headers["authorization"] = ", ".join(tokens)
        request = Request("POST", _TRACES_PATH, headers)
        reply = self.handler.screen(request)
        if reply is None:
            if not self._admitted.acquire(blocking=False):
                with self.counters.lock:
                    self.counters.calls_refused += 1
                self._abort(context, self._over_cap(request))
            try:
                message = self._message(messages, context)
                reply = self._processed(request, message, context)
            finally:
                self._admitted.release()
        if reply.status == 200:
            return reply.body
        self._abort(context, reply)

    def _message(self, messages: Iterator[bytes], context: grpc.ServicerContext) -> bytes:
        """The call's one message, or the call cancelled if it takes over ``message_timeout``.

        A client trickling its message would otherwise hold an admitted call
        (and a pool thread) until its own deadline, which it chooses.
        """
        deadline = threading.Timer(self.limits.message_timeout, self._time_out, (context,))
        deadline.daemon = True
        deadline.start()
        try:
            message = next(messages, None)
        except grpc.RpcError:
            message = None
        finally:
            deadline.cancel()
        if message is None:
            context.abort(grpc.StatusCode.CANCELLED, "the call's message did not arrive in time")
            raise AssertionError("grpc's context.abort returned")  # pragma: no cover
        return message

    def _time_out(self, context: grpc.ServicerContext) -> None:
        """Count, then cancel, a call whose message is late: counted before the client
        can see the cancellation, so a reader of the counters after it never misses it."""
        with self.counters.lock:
            self.counters.message_timeouts += 1
        context.cancel()

    def _over_cap(self, request: Request) -> Reply:
        """UNAVAILABLE + ``RetryInfo`` for a call beyond ``max_rpcs`` (its message unread)."""
        limits = self.limits
        reply = self.handler.refusal(
            request,
            503,
            f"{limits.max_rpcs} calls are already admitted (the cap bounds the messages held "
            "in memory); retry after the time given",
        )
        reply.headers["Retry-After"] = str(self.handler.retry_after())
        return reply

    def _processed(self, request: Request, message: bytes, context: grpc.ServicerContext) -> Reply:
        limits = self.limits
        if not self._slots.acquire(timeout=limits.queue_timeout):
            with self.counters.lock:
                self.counters.queue_timeouts += 1
            return slots_busy(self.handler, request, limits.max_in_flight, limits.queue_timeout)
        try:
            if not context.is_active():
                # The caller gave up (deadline) while waiting; it will send again.
                context.abort(grpc.StatusCode.CANCELLED, "the call ended while it waited")
            return self.handler.process(request, message)
        finally:
            self._slots.release()

    def _abort(self, context: grpc.ServicerContext, reply: Reply) -> NoReturn:
        """End the call with the gRPC status of ``reply`` (``context.abort`` raises)."""
        code = _CODES.get(reply.status, grpc.StatusCode.INTERNAL)
        message = _status_message(reply)
        if code is grpc.StatusCode.UNAVAILABLE:
            seconds = reply.headers.get("Retry-After")
            delay = int(seconds) if seconds else self.handler.retry_after()
            context.set_trailing_metadata(_retry_metadata(code, message, delay))
        context.abort(code, message)
        raise AssertionError("grpc's context.abort returned")  # pragma: no cover


def _status_message(reply: Reply) -> str:
    """The ``message`` of the handler's ``google.rpc.Status`` body (protobuf, as asked)."""
    status = status_pb2.Status()
    with contextlib.suppress(Exception):
        status.ParseFromString(reply.body)
    return status.message or f"HTTP-equivalent status {reply.status}"


def _retry_metadata(
    code: grpc.StatusCode, message: str, seconds: int
) -> tuple[tuple[str, bytes], ...]:
    retry = error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=seconds))
    status = status_pb2.Status(code=code.value[0], message=message)
    status.details.add().Pack(retry)
    return (
        ("grpc-status-details-bin", status.SerializeToString()),
        ("google.rpc.retryinfo-bin", retry.SerializeToString()),
    )


def _try_bind(host: str, port: int) -> None:
    """Raise the ``OSError`` that binding ``host:port`` meets (port taken, no such address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As grpcio binds: SO_REUSEADDR (connections of an earlier run in
        # TIME_WAIT do not count), no SO_REUSEPORT (a listener does).
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
