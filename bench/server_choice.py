"""Why uvicorn: ``recurscope serve``'s HTTP transport measured against aiohttp, in one run.

    python bench/server_choice.py                    # about 2 minutes (3 on a busy machine)
    python bench/server_choice.py --no-flood         # throughput only
    python bench/server_choice.py --markdown         # tables for docs/receiver.md

The receiver had to be built on "uvicorn with starlette, or aiohttp; choose by
measurement". The same run, on the same machine, starts each server in a
child process that is otherwise ``recurscope serve`` (same ``Receiver``:
spool, drainer, DuckDB store; gRPC off) and differs only in the HTTP
transport:

- **uvicorn**: ``recurscope serve`` itself (``python -m recurscope.cli serve``
  through ``recurscope.pipeline.testing.ReceiverProcess``): uvicorn's h11
  protocol with the project's ``otlp_http._Connection`` subclass (connection
  cap that evicts the longest-idle connection, header deadline) serving the
  ASGI app ``otlp_http._App``;
- **aiohttp**: one aiohttp handler calling the *same* ``_App`` coroutine (the
  431 check, ``Receiver.screen``, body deadline, byte budget, bounded queue
  for processing slots, ``Receiver.process`` in a thread pool), so the
  application code is identical and only the transport differs. Its
  connection handling is aiohttp's own settings only (``AppRunner``:
  ``keepalive_timeout``, ``max_line_size``/``max_field_size``,
  ``handler_cancellation=False``, ``shutdown_timeout``; ``Application``:
  ``client_max_size``; ``SockSite``: ``backlog``); nothing hand-written at
  the connection level, because aiohttp offers no hook for it short of
  subclassing its ``Server``/``RequestHandler``;
- **uvicorn alone** (slow-client part only): uvicorn's plain ``H11Protocol``
  with its own ``limit_concurrency`` set to the cap, the same ``_App``:
  what the library gives without ``_Connection``.

Measured:

1. **throughput**: durable spans/s (each 200 means the request is fsynced in
   the spool) with 1, 2 and 4 concurrent official ``OTLPSpanExporter`` s
   (protobuf, batches of 512 spans recorded with the SDK, as in
   ``bench/receiver_bench.py``), fresh server per run, best of ``--repeat``,
   the variants interleaved; zero loss is checked in DuckDB after a graceful
   stop. Beside it, the server process's CPU time per 1,000 spans over the
   same window (``/proc/PID/stat``; it includes the drainer storing what it
   can meanwhile), which other load on the machine disturbs less than wall
   time;
2. **slow clients**: on a fresh server of each variant with short limits
   (``--header-timeout 2 --keep-alive-timeout 4 --body-timeout 6
   --max-connections 128``), for ``--flood-seconds``: ``--idle`` connections
   that never send a byte (each reconnects 1 s after the server closes it;
   all the flood's connections are opened evenly over the first second),
   32 that send complete headers (``Content-Length: 1000``) and then the body
   one byte a second, 8 that send the request line one byte a second (each
   also reconnecting). Meanwhile the official exporter sends one 512-span
   batch a second; its latency is compared with the same server before the
   flood. Reported: when the server cuts each kind of slow client and with
   what, the most flood connections it held at once (socket descriptors in
   its ``/proc``), and whether the exporter's batches succeeded;
3. **footprint**: peak RSS (``VmHWM``) and the most threads of each server
   process during the flood, against the same process before it.

Ratios are aiohttp / uvicorn from the same run. The machine is shared (2
cores), so throughput varies from run to run: the table gives the best run
and the range of all of them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import math
import os
import platform
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from recurscope.pipeline.ingest import receiver as receiver_module
from recurscope.pipeline.ingest.otlp_http import (
    Handler,
    HttpLimits,
    HttpServer,
    Message,
    Scope,
    _App,
    _Counters,
)
from recurscope.pipeline.ingest.receiver import DEFAULT_HOST
from recurscope.pipeline.testing import ReceiverProcess

if TYPE_CHECKING:
    from aiohttp import web
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.sdk.trace.export import SpanExporter

HOST: Final = DEFAULT_HOST
VARIANTS: Final = ("uvicorn", "aiohttp")
"""Compared for throughput; the slow-client part adds ``uvicorn-alone``."""
FLOOD_LIMITS: Final = (
    "--header-timeout",
    "2",
    "--keep-alive-timeout",
    "4",
    "--body-timeout",
    "6",
    "--max-connections",
    "128",
)
BODY_TRICKLERS: Final = 32
HEADER_TRICKLERS: Final = 8
TRICKLE_BODY_BYTES: Final = 1000
RAMP_SECONDS: Final = 1.0
"""The flood's connections are opened evenly over this time."""


# --------------------------------------------------------------------------
# The server variants (run in the child process).


class AiohttpServer:
    """``_App`` behind aiohttp's server: a drop-in for :class:`HttpServer` in ``Receiver``.

    The socket is bound in the constructor (so a taken port fails at once, as
    with ``HttpServer``); the server runs on an event loop in a thread of its
    own. Connection-level limits are aiohttp's settings only.
    """

    def __init__(self, handler: Handler, host: str, port: int, limits: HttpLimits) -> None:
        self.limits = limits
        self.counters = _Counters()
        self.app = _App(handler, limits, self.counters)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.socket.bind((host, port))
        except BaseException:
            self.socket.close()
            raise
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.socket.getsockname()[:2]
        return str(host), int(port)

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        """Translate the request to ASGI, run ``_App`` on it, translate its answer back."""
        from aiohttp import web

        scope: Scope = {
            "type": "http",
            "method": request.method,
            "path": request.path,
            "raw_path": request.raw_path.encode("latin-1"),
            "headers": [(name.lower(), value) for name, value in request.raw_headers],
        }
        content = request.content

        async def receive() -> Message:
            try:
                chunk = await content.readany()
            except ConnectionError:
                return {"type": "http.disconnect"}
            return {"type": "http.request", "body": chunk, "more_body": not content.at_eof()}

        answer: dict[str, Any] = {}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = message["headers"]
            else:
                answer["body"] = message.get("body", b"")

        await self.app(scope, receive, send)
        if "status" not in answer:  # the client went away: nothing to say
            response = web.Response(status=400)
            response.force_close()
            return response
        headers: dict[str, str] = {}
        close = False
        for raw_name, raw_value in answer["headers"]:
            name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
            if name == "connection":
                close = value == "close"
            elif name != "content-length":  # aiohttp writes it
                headers[name] = value
        response = web.Response(status=answer["status"], body=answer["body"], headers=headers)
        if close:
            response.force_close()
        return response

    async def _serve(self) -> None:
        from aiohttp import web

        limits = self.limits
        application = web.Application(client_max_size=limits.max_body_bytes)
        application.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(
            application,
            handle_signals=False,
            access_log=None,
            keepalive_timeout=limits.keep_alive_timeout,
            max_line_size=limits.max_header_bytes,
            max_field_size=limits.max_header_bytes,
            handler_cancellation=False,  # Receiver.process must finish once started
            shutdown_timeout=limits.body_timeout,
        )
        await self._runner.setup()
        site = web.SockSite(
            self._runner, self.socket, backlog=max(16, min(128, limits.max_connections // 4))
        )
        await site.start()

    def start(self) -> None:
        started = threading.Event()
        failed: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            try:
                loop.run_until_complete(self._serve())
            except BaseException as error:
                failed.append(error)
                started.set()
                return
            started.set()
            loop.run_forever()
            if self._runner is not None:  # graceful: finish requests, close idle connections
                loop.run_until_complete(self._runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=run, name="recurscope-http")
        self._thread.start()
        if not started.wait(10.0) or failed:
            raise OSError(f"the aiohttp server did not start: {failed}")

    def close(self) -> None:
        if self._thread is None:
            self.app.pool.shutdown(wait=False)
            with contextlib.suppress(OSError):
                self.socket.close()

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
        self.app.pool.shutdown(wait=True)
        with contextlib.suppress(OSError):
            self.socket.close()


def uvicorn_alone(handler: Handler, host: str, port: int, limits: HttpLimits) -> HttpServer:
    """``HttpServer`` with uvicorn's plain ``H11Protocol`` and its own ``limit_concurrency``."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    server = HttpServer(handler, host, port, limits)
    config = server._server.config
    config.http = H11Protocol  # not _Connection: no cap, no header deadline
    config.limit_concurrency = server.limits.max_connections
    return server


def serve_child(variant: str, arguments: list[str]) -> int:
    """``recurscope serve`` with its HTTP transport replaced by ``variant``."""
    transport = AiohttpServer if variant == "aiohttp" else uvicorn_alone
    vars(receiver_module)["HttpServer"] = transport  # Receiver.start() builds it by this name
    from recurscope.cli import main as command_line  # what `python -m recurscope.cli` runs

    return int(command_line(arguments))


class VariantProcess(ReceiverProcess):  # type: ignore[misc]  # recurscope is Any to mypy
    """``ReceiverProcess`` running :func:`serve_child` (the same arguments, the same output)."""

    def __init__(self, variant: str, db_path: Path, *args: str) -> None:
        super().__init__(db_path, *args)
        self.variant = variant

    def start(self) -> VariantProcess:
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            self.variant,
            "serve",
            "--db",
            str(self.db_path),
            "--host",
            HOST,
            "--port",
            "0",
            *self.args,
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=self._stderr, text=True
        )
        assert self.process.stdout is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                line = self.process.stdout.readline()
                if not line:
                    break
                self.output.append(line.rstrip("\n"))
                if " listening on " in line:
                    self.endpoint = line.split(" listening on ", 1)[1].split()[0]
                    self.port = int(self.endpoint.rsplit(":", 1)[1].split("/", 1)[0])
                    return self
            elif self.process.poll() is not None:
                break
        self.kill()
        raise RuntimeError(f"{self.variant} server did not start: {self.stderr}")


def launch(variant: str, db_path: Path, *args: str) -> ReceiverProcess:
    if variant == "uvicorn":
        return ReceiverProcess(db_path, "--no-grpc", *args).start()
    return VariantProcess(variant, db_path, "--no-grpc", *args).start()


# --------------------------------------------------------------------------
# The server process, seen from /proc.


@dataclass(frozen=True, slots=True)
class ProcSample:
    rss_kib: int
    peak_rss_kib: int
    threads: int
    sockets: int


def proc_sample(pid: int) -> ProcSample:
    fields: dict[str, str] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.split()[0] if value.split() else ""
    sockets = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                sockets += 1
    return ProcSample(int(fields["VmRSS"]), int(fields["VmHWM"]), int(fields["Threads"]), sockets)


@contextlib.contextmanager
def sampling(pid: int, every: float = 0.1) -> Iterator[list[ProcSample]]:
    """Sample the process in a thread while the block runs."""
    samples: list[ProcSample] = []
    done = threading.Event()

    def run() -> None:
        while not done.wait(every):
            with contextlib.suppress(OSError, KeyError):
                samples.append(proc_sample(pid))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield samples
    finally:
        done.set()
        thread.join()


# --------------------------------------------------------------------------
# 1. Throughput.


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throughput(
    variant: str, parts: list[Sequence[ReadableSpan]], clients: int
) -> tuple[float, float]:
    """Acknowledged (durable) spans/s of a fresh server with ``clients`` exporters, and the
    server's CPU seconds per 1,000 spans meanwhile (receiving, and the drainer storing what it
    can); zero loss checked."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import SpanExportResult

    from recurscope.pipeline import Store

    total = sum(len(part) for part in parts)
    with tempfile.TemporaryDirectory(prefix="recurscope-choice-") as folder:
        db = Path(folder) / "bench.duckdb"
        with launch(variant, db) as server:
            failures: list[SpanExportResult] = []

            def client(mine: list[Sequence[ReadableSpan]]) -> None:
                exporter: SpanExporter = OTLPSpanExporter(endpoint=server.endpoint)
                for part in mine:
                    result = exporter.export(part)
                    if result != SpanExportResult.SUCCESS:
                        failures.append(result)
                exporter.shutdown()

            threads = [
                threading.Thread(target=client, args=(parts[i::clients],)) for i in range(clients)
            ]
            assert server.process is not None
            cpu = cpu_seconds(server.process.pid)
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            acknowledged = time.perf_counter() - started
            cpu = cpu_seconds(server.process.pid) - cpu
            code = server.stop()
            if code != 0 or failures:
                raise SystemExit(f"{variant}: exit {code}, {len(failures)} failed exports")
        with Store.open(db, read_only=True) as store:
            row = store.query("SELECT count(*), count(DISTINCT (TraceId, SpanId)) FROM otel_traces")
    stored, distinct = int(str(row[0][0])), int(str(row[0][1]))
    if stored != total or distinct != total:
        raise SystemExit(f"{variant}: LOSS: sent {total}, stored {stored} ({distinct} distinct)")
    return total / acknowledged, 1000 * cpu / total


# --------------------------------------------------------------------------
# 2. Slow clients.


@dataclass(slots=True)
class SlowKind:
    """What the server did to one kind of slow client during the flood."""

    connections: int = 0
    cut_after: list[float] = field(default_factory=list)
    """Seconds from connecting to the server's answer or close."""
    outcomes: Counter[str] = field(default_factory=Counter)
    """Status code of the answer, "closed" (no answer) or "held to the end"."""
    outcomes_in_order: list[str] = field(default_factory=list)
    """The outcome of each connection in ``cut_after``."""

    def cut(self) -> str:
        """Each way the server ended these connections, how often and after how long (median)."""
        ways: dict[str, list[float]] = {}
        for outcome, seconds in zip(self.outcomes_in_order, self.cut_after, strict=True):
            ways.setdefault(outcome, []).append(seconds)
        parts = [
            f"{way} ×{len(times)} after {statistics.median(times):.1f} s"
            for way, times in sorted(ways.items(), key=lambda item: -len(item[1]))
        ]
        for other in ("refused", "held to the end"):
            if self.outcomes[other]:
                parts.append(f"{self.outcomes[other]} {other}")
        return "; ".join(parts) if parts else "-"


async def _drip(writer: asyncio.StreamWriter, head: bytes, drip: bytes) -> None:
    """Send ``head`` at once, then ``drip`` one byte a second."""
    try:
        writer.write(head)
        await writer.drain()
        for index in range(len(drip)):
            await asyncio.sleep(1.0)
            writer.write(drip[index : index + 1])
            await writer.drain()
    except OSError:
        pass


async def flood(port: int, idle: int, seconds: float) -> dict[str, SlowKind]:
    """Hold ``idle`` silent connections and the tricklers for ``seconds``; reconnect when cut."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    kinds = {"idle": SlowKind(), "headers": SlowKind(), "body": SlowKind()}
    body_head = (
        f"POST /v1/traces HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/x-protobuf\r\n"
        f"Content-Length: {TRICKLE_BODY_BYTES}\r\n\r\n"
    ).encode()
    header_drip = (
        f"POST /v1/traces HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/x-protobuf\r\n"
    ).encode()

    async def client(kind: str, head: bytes, drip: bytes, delay: float) -> None:
        stats = kinds[kind]
        await asyncio.sleep(delay)
        while loop.time() < end:
            try:
                reader, writer = await asyncio.open_connection(HOST, port)
            except OSError:
                stats.outcomes["refused"] += 1
                await asyncio.sleep(1.0)
                continue
            stats.connections += 1
            opened = loop.time()
            sender = asyncio.create_task(_drip(writer, head, drip)) if head or drip else None
            line: bytes | None
            try:
                line = await asyncio.wait_for(reader.readline(), max(0.0, end - loop.time()))
            except TimeoutError:
                line = None
            except OSError:
                line = b""
            if sender is not None:
                sender.cancel()
            writer.close()
            if line is None:
                stats.outcomes["held to the end"] += 1
                continue
            stats.cut_after.append(loop.time() - opened)
            parts = line.split()
            outcome = parts[1].decode() if len(parts) > 1 else "closed"
            stats.outcomes[outcome] += 1
            stats.outcomes_in_order.append(outcome)
            await asyncio.sleep(min(1.0, max(0.0, end - loop.time())))

    # Opened over RAMP_SECONDS, not at once: a burst beyond the listen backlog
    # leaves connections the client believes open (SYN cookies) but the
    # server never accepted, which would make a silent flood look smaller.
    specs = [("idle", b"", b"")] * idle
    specs += [("body", body_head, b"x" * TRICKLE_BODY_BYTES)] * BODY_TRICKLERS
    specs += [("headers", b"", header_drip)] * HEADER_TRICKLERS
    step = RAMP_SECONDS / len(specs)
    await asyncio.gather(
        *(client(kind, head, drip, index * step) for index, (kind, head, drip) in enumerate(specs))
    )
    return kinds


@dataclass(frozen=True, slots=True)
class FloodRun:
    variant: str
    before: ProcSample
    peak_rss_kib: int
    peak_threads: int
    peak_sockets: int
    latency_before: float
    latencies: list[float]
    failed: int
    kinds: dict[str, SlowKind]


def slow_clients(
    variant: str, parts: list[Sequence[ReadableSpan]], idle: int, seconds: float
) -> FloodRun:
    """A fresh server with short limits under the flood, one exporter batch a second."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import SpanExportResult

    def timed_export(exporter: SpanExporter, index: int) -> tuple[float, bool]:
        started = time.perf_counter()
        result = exporter.export(parts[index % len(parts)])
        return time.perf_counter() - started, result == SpanExportResult.SUCCESS

    with tempfile.TemporaryDirectory(prefix="recurscope-choice-") as folder:
        with launch(variant, Path(folder) / "flood.duckdb", *FLOOD_LIMITS) as server:
            assert server.process is not None
            pid = server.process.pid
            exporter: SpanExporter = OTLPSpanExporter(endpoint=server.endpoint)
            timed_export(exporter, 0)  # warm-up: connection, first decode
            quiet = [timed_export(exporter, i)[0] for i in range(1, 6)]
            time.sleep(0.5)
            before = proc_sample(pid)
            result: dict[str, dict[str, SlowKind]] = {}

            def run_flood() -> None:
                result["kinds"] = asyncio.run(flood(server.port, idle, seconds))

            latencies: list[float] = []
            failed = 0
            with sampling(pid) as samples:
                flooder = threading.Thread(target=run_flood)
                flooder.start()
                started = time.monotonic()
                time.sleep(RAMP_SECONDS + 0.5)
                index = 6
                while time.monotonic() - started < seconds - 1.0:
                    tick = time.monotonic()
                    latency, ok = timed_export(exporter, index)
                    index += 1
                    latencies.append(latency)
                    failed += not ok
                    time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
                flooder.join()
            exporter.shutdown()
            server.stop()
    return FloodRun(
        variant,
        before,
        max([s.peak_rss_kib for s in samples] + [before.peak_rss_kib]),
        max([s.threads for s in samples] + [before.threads]),
        max([s.sockets for s in samples] + [before.sockets]) - before.sockets,
        statistics.median(quiet),
        latencies,
        failed,
        result["kinds"],
    )


# --------------------------------------------------------------------------
# Report.


def _ratio(a: float, b: float) -> str:
    if not b or math.isinf(a) or math.isinf(b):
        return "-"
    return f"{a / b:.2f}x"


def _rate(runs: list[float]) -> str:
    """The best run, and the range of all of them (the machine is shared)."""
    if len(runs) == 1:
        return f"{runs[0]:,.0f} spans/s"
    return f"{max(runs):,.0f} spans/s ({min(runs):,.0f}-{max(runs):,.0f})"


def _print_tables(
    rates: dict[tuple[str, int], list[float]],
    cpus: dict[tuple[str, int], list[float]],
    floods: dict[str, FloodRun],
    clients: list[int],
    idle: int,
) -> None:
    if rates:
        print(
            "| exporters | uvicorn (recurscope serve) | aiohttp | aiohttp / uvicorn "
            "| server CPU per 1,000 spans: uvicorn | aiohttp | aiohttp / uvicorn |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
    for count in clients if rates else []:
        base, other = rates["uvicorn", count], rates["aiohttp", count]
        base_cpu, other_cpu = min(cpus["uvicorn", count]), min(cpus["aiohttp", count])
        print(
            f"| {count} | {_rate(base)} | {_rate(other)} | {_ratio(max(other), max(base))} "
            f"| {base_cpu * 1000:.0f} ms | {other_cpu * 1000:.0f} ms "
            f"| {_ratio(other_cpu, base_cpu)} |"
        )
    print()
    if not floods:
        return
    names = [name for name in ("uvicorn", "aiohttp", "uvicorn-alone") if name in floods]
    heads = {
        "uvicorn": "uvicorn (recurscope serve)",
        "aiohttp": "aiohttp (its own settings)",
        "uvicorn-alone": "uvicorn alone (no `_Connection`)",
    }
    print("| under the flood | " + " | ".join(heads[n] for n in names) + " | aiohttp / uvicorn |")
    print("| --- |" + " --- |" * (len(names) + 1))

    def row(label: str, values: dict[str, str], ratio: str = "") -> None:
        print(f"| {label} | " + " | ".join(values[n] for n in names) + f" | {ratio} |")

    uv, ai = floods["uvicorn"], floods["aiohttp"]

    def med(run: FloodRun) -> float:
        return statistics.median(run.latencies) if run.latencies else float("nan")

    row(
        "exporter batch (512 spans), before the flood",
        {n: f"{floods[n].latency_before * 1000:.0f} ms" for n in names},
        _ratio(ai.latency_before, uv.latency_before),
    )
    row(
        "exporter batch during the flood: median / max",
        {
            n: f"{med(floods[n]) * 1000:.0f} / {max(floods[n].latencies, default=0) * 1000:.0f} ms"
            for n in names
        },
        _ratio(med(ai), med(uv)),
    )
    row(
        "exporter batches failed during the flood",
        {n: f"{floods[n].failed} of {len(floods[n].latencies)}" for n in names},
    )
    for kind, label in (
        ("idle", f"{idle} idle connections (never send): server cuts them"),
        ("headers", f"{HEADER_TRICKLERS} request lines trickled 1 byte/s: cut"),
        ("body", f"{BODY_TRICKLERS} bodies trickled 1 byte/s: cut"),
    ):
        row(label, {n: floods[n].kinds[kind].cut() for n in names})
    row(
        "most flood connections held at once (cap 128)",
        {n: str(floods[n].peak_sockets) for n in names},
        _ratio(ai.peak_sockets, uv.peak_sockets),
    )
    row(
        "peak RSS (VmHWM) before → during the flood",
        {
            n: f"{floods[n].before.peak_rss_kib / 1024:.0f} → "
            f"{floods[n].peak_rss_kib / 1024:.0f} MiB"
            for n in names
        },
        _ratio(ai.peak_rss_kib, uv.peak_rss_kib),
    )

    row(
        "threads before → most during the flood",
        {n: f"{floods[n].before.threads} → {floods[n].peak_threads}" for n in names},
        _ratio(ai.peak_threads, uv.peak_threads),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=8_192, help="spans per throughput run")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--repeat", type=int, default=3, help="throughput runs per cell (best; 0: none)"
    )
    parser.add_argument("--idle", type=int, default=200, help="idle connections in the flood")
    parser.add_argument("--flood-seconds", type=float, default=12.0)
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables only")
    parser.add_argument("--no-flood", action="store_true", help="throughput only")
    options = parser.parse_args()

    import aiohttp
    import uvicorn
    from receiver_bench import batches, record_spans

    began = time.perf_counter()
    parts = batches(record_spans(options.spans))
    rates: dict[tuple[str, int], list[float]] = {}
    cpus: dict[tuple[str, int], list[float]] = {}
    for round_ in range(options.repeat):
        for count in options.clients:
            order = VARIANTS if (round_ + count) % 2 == 0 else VARIANTS[::-1]
            for variant in order:
                rate, cpu = throughput(variant, parts, count)
                rates.setdefault((variant, count), []).append(rate)
                cpus.setdefault((variant, count), []).append(cpu)
                if not options.markdown:
                    print(
                        f"throughput {variant}, {count} exporter(s): {rate:,.0f} spans/s, "
                        f"server CPU {cpu * 1000:.0f} ms per 1,000 spans"
                    )
    floods: dict[str, FloodRun] = {}
    for variant in () if options.no_flood else (*VARIANTS, "uvicorn-alone"):
        floods[variant] = slow_clients(variant, parts, options.idle, options.flood_seconds)
        if not options.markdown:
            print(f"flood {variant}: done")
    load = os.getloadavg()[0]
    print()
    print(
        f"{datetime.date.today().isoformat()}, Python {platform.python_version()}, "
        f"uvicorn {uvicorn.__version__} (h11), aiohttp {aiohttp.__version__}, "
        f"{os.cpu_count()} cores, load average {load:.1f} at the end; recurscope from "
        f"{Path(receiver_module.__file__).resolve().parents[2]}; "
        f"{options.spans:,} spans per throughput run, best of {options.repeat}; "
        f"flood: {options.idle} idle + {BODY_TRICKLERS} body + {HEADER_TRICKLERS} header "
        f"tricklers for {options.flood_seconds:g} s with {' '.join(FLOOD_LIMITS)}; "
        f"{time.perf_counter() - began:.0f} s in all"
    )
    print()
    _print_tables(rates, cpus, floods, options.clients, options.idle)
    return 0


def _entry(argv: list[str]) -> Callable[[], int]:
    if argv[:1] == ["--child"]:
        variant, arguments = argv[1], argv[2:]
        return lambda: serve_child(variant, arguments)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    return main


if __name__ == "__main__":
    sys.exit(_entry(sys.argv[1:])())
