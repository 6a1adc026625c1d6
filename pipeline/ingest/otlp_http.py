"""OTLP/HTTP on uvicorn: the transport of ``recurscope serve``.

The receiver's protocol logic (decode, spool, answer) is synchronous and
lives in :mod:`recurscope.pipeline.ingest.receiver`; this module is only how bytes
reach it. uvicorn (h11) owns the sockets, HTTP/1.1 parsing, keep-alive and
header size limits; an idle connection costs a file descriptor and a few
kilobytes, never a thread. What uvicorn leaves to the application, and this
module adds:

- **a connection cap** (``max_connections``): a connection beyond it is
  closed as soon as it is accepted, before it can hold anything;
- **a deadline for request headers** (``header_timeout``): a connection that
  has not sent a complete request line and headers that long after it opened
  (or after its previous response) is closed — uvicorn's keep-alive timer
  stops at the first byte, so a client trickling headers would otherwise
  hold the connection forever;
- **a deadline for the whole body** (``body_timeout``), so a client that
  trickles its body cannot hold a processing slot or memory;
- **authentication before the body is read**, and the cheap refusals (404,
  405, 415, 413 by ``Content-Length``, 411) before it too;
- **a byte budget** (``max_buffered_bytes``) for bodies being read, which
  with uvicorn's per-connection flow control bounds the memory that request
  bodies take whatever the number of clients;
- **a bounded, first-come queue for processing slots** (``max_in_flight``,
  waiting at most ``queue_timeout``): under a flood a well-behaved exporter's
  request waits its turn instead of being refused at once; only a request
  that would wait longer than that gets 503 with a ``Retry-After`` computed
  from the backlog;
- decoding and the spool's ``fdatasync`` run in worker threads, off the
  event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HttpLimits", "HttpServer", "Reply", "Request", "slots_busy"]

_log = logging.getLogger("recurscope.serve")  # the serve command prints this logger

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """The transport's limits; ``recurscope serve`` has a flag for each."""

    max_connections: int = 256
    header_timeout: float = 10.0
    keep_alive_timeout: float = 30.0
    body_timeout: float = 30.0
    max_header_bytes: int = 64 * 1024
    max_body_bytes: int = 20 * 1024 * 1024
    max_buffered_bytes: int = 256 * 1024 * 1024
    max_in_flight: int = 8
    queue_timeout: float = 5.0


@dataclass(frozen=True, slots=True)
class Request:
    """A request whose headers have arrived (the body is read only once admitted)."""

    method: str
    path: str
    headers: dict[str, str]
    """Lower-case names; repeated headers joined with ', '."""

    @property
    def content_length(self) -> int | None:
        """The declared length; ``None`` when absent; -1 when it is not a number."""
        text = self.headers.get("content-length")
        if text is None:
            return None
        try:
            value = int(text)
        except ValueError:
            return -1
        return value if value >= 0 else -1

    @property
    def chunked(self) -> bool:
        return "chunked" in self.headers.get("transfer-encoding", "").lower()


@dataclass(slots=True)
class Reply:
    """An answer: status, body and extra headers (``Content-Type`` included)."""

    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    close: bool = False


class Handler(Protocol):
    """What the receiver provides: cheap checks on headers, then the body's processing."""

    def screen(self, request: Request) -> Reply | None:
        """A refusal decided from the headers alone (404, 401, 415, 413, 411), or ``None``."""

    def process(self, request: Request, body: bytes) -> Reply:
        """Decode, spool and answer; runs in a worker thread (it may block on fsync)."""

    def refusal(self, request: Request, status: int, message: str) -> Reply:
        """A ``google.rpc.Status`` answer in the request's encoding."""

    def retry_after(self) -> int:
        """Seconds a throttled client should wait, from the backlog."""


def slots_busy(handler: Handler, request: Request, slots: int, waited: float) -> Reply:
    """503 + ``Retry-After`` for a request that waited ``waited`` s for one of ``slots``."""
    reply = handler.refusal(
        request,
        503,
        f"all {slots} processing slots stayed busy for {waited:g} s; retry after the time given",
    )
    reply.headers["Retry-After"] = str(handler.retry_after())
    return reply


class _Counters:
    """Transport events, for logs and tests (thread-safe enough: the loop is one thread)."""

    def __init__(self) -> None:
        self.connections_refused = 0
        self.connections_evicted = 0
        self.header_timeouts = 0
        self.body_timeouts = 0
        self.queue_timeouts = 0
        self.connections_peak = 0


class _Config(uvicorn.Config):
    """uvicorn's config, carrying our limits, counters and idle registry to each connection."""

    limits: HttpLimits
    counters: _Counters
    waiting: dict[_Connection, None]
    """Connections without a request in progress, oldest first (insertion order)."""


class _Connection(H11Protocol):
    """uvicorn's h11 protocol with a connection cap and a header deadline."""

    def __init__(self, config: _Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self._limits = config.limits
        self._counters = config.counters
        self._header_timer: asyncio.TimerHandle | None = None
        self._armed_cycle: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        counters = self._counters
        if self._open_connections() > self._limits.max_connections and self._evict_one():
            counters.connections_evicted += 1
        if self._open_connections() > self._limits.max_connections:
            counters.connections_refused += 1
            if (
                counters.connections_refused in (1, 10, 100)
                or not counters.connections_refused % 1000
            ):
                _log.info(
                    "more than %d connections open (--max-connections): closing new ones "
                    "(%d so far)",
                    self._limits.max_connections,
                    counters.connections_refused,
                )
            transport.close()
            return
        counters.connections_peak = max(counters.connections_peak, self._open_connections())
        self._waiting[self] = None
        self._arm_header_timer()

    def _open_connections(self) -> int:
        """Connections not already closing: an evicted one leaves ``connections`` only
        on the next loop turn, and must not count against the one that replaced it."""
        return sum(1 for c in self.connections if not c.transport.is_closing())

    def _evict_one(self) -> bool:
        """Close the connection that has waited longest without a request; False if none.

        At the cap a new connection replaces an idle one rather than being
        refused: idle sockets (a client that connects and says nothing, or a
        keep-alive connection between exports) cannot lock exporters out,
        and a client whose idle connection is closed simply opens another.
        """
        for victim in self._waiting:
            if victim is not self and not victim.transport.is_closing():
                del self._waiting[victim]
                victim.transport.close()
                return True
        return False

    @property
    def _waiting(self) -> dict[_Connection, None]:
        return self.config.waiting  # type: ignore[attr-defined,no-any-return]

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._waiting.pop(self, None)  # a request is in progress: not idle

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        self._waiting.pop(self, None)
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._waiting[self] = None
            self._arm_header_timer()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._armed_cycle = self.cycle
        self._header_timer = self.loop.call_later(self._limits.header_timeout, self._header_timeout)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        # A new request since the timer was armed means its headers arrived.
        if self.cycle is self._armed_cycle and not self.transport.is_closing():
            self._counters.header_timeouts += 1
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        # h11 refuses a request line or headers over max_incomplete_event_size
        # as a protocol error; say 431 (with a status body) rather than 400.
        buffered = getattr(self.conn, "_receive_buffer", b"")
        too_large = len(buffered) > self._limits.max_header_bytes
        status = 431 if too_large else 400
        message = (
            f"request line and headers exceed {self._limits.max_header_bytes} bytes"
            if too_large
            else f"malformed HTTP request: {msg}"
        )
        body = b'{"code": 3, "message": "' + message.encode() + b'"}'
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        with contextlib.suppress(h11.LocalProtocolError):
            self.transport.write(self.conn.send(h11.Response(status_code=status, headers=headers)))
            self.transport.write(self.conn.send(h11.Data(data=body)))
            self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()


class _ByteBudget:
    """Bytes of request bodies held at once; readers wait for room (first come, first served)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.used = 0
        self._changed = asyncio.Condition()

    async def take(self, amount: int) -> None:
        amount = min(amount, self.capacity)  # one body larger than the budget still fits alone
        async with self._changed:
            await self._changed.wait_for(lambda: self.used + amount <= self.capacity)
            self.used += amount

    async def give(self, amount: int) -> None:
        async with self._changed:
            self.used -= amount
            self._changed.notify_all()


class _App:
    """The ASGI application: screen, admit, read, process in a thread, answer."""

    def __init__(self, handler: Handler, limits: HttpLimits, counters: _Counters) -> None:
        self.handler = handler
        self.limits = limits
        self.counters = counters
        self.pool = ThreadPoolExecutor(limits.max_in_flight, thread_name_prefix="recurscope-otlp")
        # Created on the server's loop, at its first request.
        self._slots: asyncio.Semaphore | None = None
        self._budget: _ByteBudget | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        if self._slots is None or self._budget is None:
            self._slots = asyncio.Semaphore(self.limits.max_in_flight)
            self._budget = _ByteBudget(self.limits.max_buffered_bytes)
        size = len(scope.get("raw_path") or b"") + sum(
            len(name) + len(value) + 4 for name, value in scope["headers"]
        )
        if size > self.limits.max_header_bytes:
            # h11 only bounds headers that arrive incomplete; a complete oversized
            # block in one read gets through it, so the total is checked here.
            body = (
                b'{"code": 3, "message": "request line and headers exceed '
                + str(self.limits.max_header_bytes).encode()
                + b' bytes"}'
            )
            await self._send(
                send, Reply(431, body, {"Content-Type": "application/json"}, close=True)
            )
            return
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope["headers"]:
            name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        request = Request(scope["method"], scope["path"], headers)
        reply = self.handler.screen(request)
        if reply is None:
            reply = await self._admitted(request, receive, self._slots, self._budget)
        await self._send(send, reply)

    async def _admitted(
        self, request: Request, receive: Receive, slots: asyncio.Semaphore, budget: _ByteBudget
    ) -> Reply:
        """Read the body within its deadline, then wait (bounded) for a slot to process it.

        The body is read *before* a processing slot is taken: a client that
        trickles its body holds only the bytes it has sent (from the shared
        budget), never a slot that well-behaved exporters need.
        """
        loop = asyncio.get_running_loop()
        limits = self.limits
        deadline = loop.time() + limits.body_timeout
        held = 0
        try:
            parts: list[bytes] = []
            try:
                while True:
                    remaining = deadline - loop.time()
                    if remaining <= 0:
                        raise TimeoutError
                    message = await asyncio.wait_for(receive(), remaining)
                    if message["type"] == "http.disconnect":
                        return Reply(_GONE, b"", close=True)
                    chunk: bytes = message.get("body", b"")
                    if chunk:
                        if held + len(chunk) > limits.max_body_bytes:
                            reply = self.handler.refusal(
                                request,
                                413,
                                f"body exceeds --max-body-bytes {limits.max_body_bytes}; send "
                                "smaller batches (e.g. BatchSpanProcessor max_export_batch_size)",
                            )
                            reply.close = True
                            return reply
                        await asyncio.wait_for(budget.take(len(chunk)), remaining)
                        held += min(len(chunk), budget.capacity)
                        parts.append(chunk)
                    if not message.get("more_body", False):
                        break
            except TimeoutError:
                self.counters.body_timeouts += 1
                reply = self.handler.refusal(
                    request,
                    408,
                    f"the body did not arrive within {limits.body_timeout:g} s (--body-timeout)",
                )
                reply.close = True
                return reply
            body = b"".join(parts)
            parts.clear()
            try:
                await asyncio.wait_for(slots.acquire(), limits.queue_timeout)
            except TimeoutError:
                self.counters.queue_timeouts += 1
                return slots_busy(self.handler, request, limits.max_in_flight, limits.queue_timeout)
            try:
                return await loop.run_in_executor(self.pool, self.handler.process, request, body)
            finally:
                slots.release()
        finally:
            if held:
                await budget.give(held)

    @staticmethod
    async def _send(send: Send, reply: Reply) -> None:
        if reply.status == _GONE:  # the client went away: nothing to say
            return
        headers = [(b"content-length", str(len(reply.body)).encode())]
        headers += [(k.lower().encode(), v.encode()) for k, v in reply.headers.items()]
        if reply.close:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": reply.status, "headers": headers})
        await send({"type": "http.response.body", "body": reply.body})


_STARTUP_TIMEOUT: Final = 10.0
_GONE: Final = 499
"""Not sent: marks a request whose client disconnected before its body arrived."""


_RESERVED_FILES: Final = 128
"""File descriptors kept free of connections: the store, its snapshot, spool segments, gRPC."""


def _within_file_limit(limits: HttpLimits) -> HttpLimits:
    """Lower the connection cap below the process's open-file limit, leaving room for the rest.

    Otherwise, under ``ulimit -n 256``, connections would take every
    descriptor before the cap is reached: accepting fails, and the drainer
    can no longer open the store ("Too many open files").
    """
    import dataclasses
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limits
    room = max(8, soft - _RESERVED_FILES)
    if limits.max_connections <= room:
        return limits
    _log.info(
        "--max-connections %d lowered to %d: the open-file limit is %d (ulimit -n)",
        limits.max_connections,
        room,
        soft,
    )
    return dataclasses.replace(limits, max_connections=room)


class HttpServer:
    """uvicorn serving :class:`_App` on a socket bound here, in a thread of its own."""

    def __init__(self, handler: Handler, host: str, port: int, limits: HttpLimits) -> None:
        limits = _within_file_limit(limits)
        self.limits = limits
        self.counters = _Counters()
        self.app = _App(handler, limits, self.counters)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.socket.bind((host, port))  # raises OSError now when the port is taken
        except BaseException:
            self.socket.close()
            raise
        config = _Config(
            self.app,
            lifespan="off",
            http=_Connection,
            ws="none",
            log_level=logging.WARNING,
            access_log=False,
            server_header=False,
            date_header=False,
            timeout_keep_alive=max(1, int(limits.keep_alive_timeout)),
            timeout_graceful_shutdown=None,
            h11_max_incomplete_event_size=limits.max_header_bytes,
            # asyncio accepts up to `backlog` connections in one burst before any
            # protocol runs, so the cap can only act on what is left: a burst
            # of a quarter of the cap keeps a full server inside its files.
            backlog=max(16, min(128, limits.max_connections // 4)),
        )
        config.limits = limits
        config.counters = self.counters
        config.waiting = {}
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.socket.getsockname()[:2]
        return str(host), int(port)

    @property
    def open_connections(self) -> int:
        return len(self._server.server_state.connections)

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self.socket]}, name="recurscope-http"
        )
        self._thread.start()
        waited = 0.0
        while not self._server.started:
            if not self._thread.is_alive():
                raise OSError("the HTTP server stopped while starting (see the log)")
            if waited > _STARTUP_TIMEOUT:
                raise OSError("the HTTP server did not start within 10 s")
            threading.Event().wait(0.01)
            waited += 0.01

    def close(self) -> None:
        """Release the socket of a server that never started (start() failed)."""
        if self._thread is None:
            self.app.pool.shutdown(wait=False)
            with contextlib.suppress(OSError):
                self.socket.close()

    def stop(self) -> None:
        """Stop accepting, let requests in flight finish, close idle connections."""
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join()
        self.app.pool.shutdown(wait=True)
        with contextlib.suppress(OSError):
            self.socket.close()
