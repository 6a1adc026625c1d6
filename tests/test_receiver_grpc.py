"""`recurscope serve` over OTLP/gRPC: the official exporter, status codes, token, limits, kill -9."""

from __future__ import annotations

import gzip
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from recurscope.cli import main
from recurscope.pipeline import Store
from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.ingest.otlp_grpc import EXPORT_METHOD, GrpcLimits, GrpcServer
from recurscope.pipeline.ingest.otlp_http import Reply, Request
from recurscope.pipeline.ingest.receiver import (
    DEFAULT_GRPC_PORT,
    Receiver,
    ReceiverConfig,
)
from recurscope.pipeline.testing import ReceiverProcess

Ids = set[tuple[str, str]]
Metadata = Sequence[tuple[str, str]]


# -- helpers ------------------------------------------------------------------------------------


def sdk_spans(
    count: int, *, name: str = "span", bad_last: bool = False, origin: str | None = None
) -> list[ReadableSpan]:
    """``count`` finished SDK spans (real ids); with ``bad_last`` the last ends before it starts."""
    exporter = InMemorySpanExporter()
    resource = {"service.name": "grpc-test"}
    if origin is not None:
        resource["recurscope.origin"] = origin
    provider = TracerProvider(resource=Resource.create(resource))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("recurscope.tests", "1.0")
    start = 1_700_000_000_000_000_000
    for index in range(count):
        span = tracer.start_span(f"{name}-{index}", start_time=start + index * 1000)
        span.set_attribute("index", index)
        bad = bad_last and index == count - 1
        span.end(end_time=start + index * 1000 + (-10 if bad else 500))
    provider.shutdown()
    return list(exporter.get_finished_spans())


def ids(spans: list[ReadableSpan]) -> Ids:
    return {(f"{s.context.trace_id:032x}", f"{s.context.span_id:016x}") for s in spans if s.context}


def stored_ids(db: Path, table: str = "otel_traces") -> list[tuple[str, str]]:
    """Every (TraceId, SpanId) in ``table``, repeats included (the server must be stopped)."""
    with Store.open(db, read_only=True) as store:
        return [(str(t), str(s)) for t, s in store.query(f"SELECT TraceId, SpanId FROM {table}")]


def call_export(
    endpoint: str,
    body: bytes,
    *,
    metadata: Metadata = (),
    compression: grpc.Compression | None = None,
    method: str = EXPORT_METHOD,
    timeout: float = 10,
) -> ExportTraceServiceResponse:
    """One raw ``Export`` call (no retries, unlike the exporter); raises ``grpc.RpcError``."""
    with grpc.insecure_channel(endpoint, compression=compression) as channel:
        export = channel.unary_unary(method)
        raw: bytes = export(body, metadata=metadata, timeout=timeout)
    response = ExportTraceServiceResponse()
    response.ParseFromString(raw)
    return response


def refusal(
    endpoint: str,
    body: bytes,
    *,
    metadata: Metadata = (),
    compression: grpc.Compression | None = None,
    method: str = EXPORT_METHOD,
) -> grpc.RpcError:
    """The error an ``Export`` call must end with."""
    with pytest.raises(grpc.RpcError) as caught:
        call_export(endpoint, body, metadata=metadata, compression=compression, method=method)
    return caught.value


def proto_body(spans: list[ReadableSpan]) -> bytes:
    body: bytes = encode_spans(spans).SerializeToString()
    return body


# -- configuration ------------------------------------------------------------------------------


def test_grpc_is_on_by_default_and_follows_a_free_http_port() -> None:
    """4317 by default; with port=0 the default moves to a free port so receivers never
    collide; an explicit port is kept; None turns gRPC off."""
    assert ReceiverConfig().grpc_bind_port == DEFAULT_GRPC_PORT == 4317
    assert ReceiverConfig(port=0).grpc_bind_port == 0
    assert ReceiverConfig(port=4400, grpc_port=4401).grpc_bind_port == 4401
    assert ReceiverConfig(port=0, grpc_port=None).grpc_bind_port is None


def test_no_grpc_listens_on_http_only(tmp_path: Path) -> None:
    """grpc_port=None: no gRPC server, grpc_address is None, HTTP works as before."""
    receiver = Receiver(ReceiverConfig(db_path=tmp_path / "r.duckdb", port=0, grpc_port=None))
    receiver.start()
    try:
        assert receiver.grpc_address is None and receiver.grpc_endpoint is None
        assert receiver.url.startswith("http://127.0.0.1:")
    finally:
        assert receiver.stop() is True


def test_without_grpcio_start_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without grpcio, start() fails naming the extra and --no-grpc, before the spool exists."""
    monkeypatch.setitem(sys.modules, "recurscope.pipeline.ingest.otlp_grpc", None)
    config = ReceiverConfig(db_path=tmp_path / "r.duckdb", port=0)
    with pytest.raises(PipelineError, match=r"recurscope\[pipeline\].*--no-grpc"):
        Receiver(config).start()
    assert not config.spool_path.exists()


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


def test_a_taken_grpc_port_fails_before_anything_is_created(
    tmp_path: Path, taken_port: int
) -> None:
    """Binding comes first: OSError naming --grpc-port, no spool created, the HTTP port let go."""
    config = ReceiverConfig(db_path=tmp_path / "r.duckdb", port=0, grpc_port=taken_port)
    with pytest.raises(OSError, match=r"--grpc-port.*--no-grpc") as caught:
        Receiver(config).start()
    assert f"127.0.0.1:{taken_port}" in str(caught.value)
    assert not config.spool_path.exists() and not config.db_path.exists()
    # Nothing was left half-open: the same store starts at once with a free gRPC port.
    again = Receiver(ReceiverConfig(db_path=config.db_path, port=0, grpc_port=0))
    again.start()
    assert again.stop() is True


def test_the_command_says_which_port_is_taken(
    tmp_path: Path, taken_port: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """`serve --grpc-port N` on a taken port exits 1 with what to do, no traceback."""
    db = str(tmp_path / "r.duckdb")
    assert main(["serve", "--db", db, "--port", "0", "--grpc-port", str(taken_port)]) == 1
    err = capsys.readouterr().err
    assert f"cannot listen for OTLP/gRPC on 127.0.0.1:{taken_port}" in err
    assert "--no-grpc" in err and "Traceback" not in err


# -- the transport's queue, with a handler that holds its slot ---------------------------------


class SlowHandler:
    """Accepts everything; the first call to ``process`` holds its slot until released."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.processed = 0

    def screen(self, request: Request) -> Reply | None:
        return None

    def process(self, request: Request, body: bytes) -> Reply:
        self.processed += 1
        if self.processed == 1:
            self.entered.set()
            self.release.wait(10)
        return Reply(200, b"")

    def refusal(self, request: Request, status: int, message: str) -> Reply:
        return Reply(status, status_pb2.Status(code=14, message=message).SerializeToString())

    def retry_after(self) -> int:
        return 1


def test_calls_wait_for_a_slot_then_get_unavailable_and_beyond_the_cap_are_refused() -> None:
    """One slot, busy: the next call waits queue_timeout, then UNAVAILABLE with RetryInfo;
    a call beyond max_rpcs is UNAVAILABLE with RetryInfo at once, its message unread (grpcio's
    own cap would answer a bare RESOURCE_EXHAUSTED, which OTLP exporters drop); a caller that
    gave up while it waited is not processed once the slot frees."""
    handler = SlowHandler()
    server = GrpcServer(
        handler, "127.0.0.1", 0, GrpcLimits(max_in_flight=1, max_rpcs=2, queue_timeout=1.0)
    )
    server.start()
    endpoint = f"127.0.0.1:{server.port}"
    try:
        with ThreadPoolExecutor(2) as pool:
            first = pool.submit(call_export, endpoint, b"")
            assert handler.entered.wait(10)
            error = refusal(endpoint, b"")
            assert error.code() == grpc.StatusCode.UNAVAILABLE
            assert "processing slots stayed busy" in error.details()
            retry = dict(error.trailing_metadata())["google.rpc.retryinfo-bin"]
            assert error_details_pb2.RetryInfo.FromString(retry).retry_delay.seconds == 1

            gave_up = pool.submit(call_export, endpoint, b"", timeout=0.3)
            time.sleep(0.1)  # admitted, waiting for the slot: the cap (2) is reached
            started = time.monotonic()
            over = refusal(endpoint, b"x" * 1000)
            assert time.monotonic() - started < 0.5  # at once, not after the queue timeout
            assert over.code() == grpc.StatusCode.UNAVAILABLE
            assert "2 calls are already admitted" in over.details()
            trailers = dict(over.trailing_metadata())
            retry = trailers["google.rpc.retryinfo-bin"]
            assert error_details_pb2.RetryInfo.FromString(retry).retry_delay.seconds == 1
            assert "grpc-status-details-bin" in trailers
            with pytest.raises(grpc.RpcError) as caught:
                gave_up.result()
            assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            handler.release.set()  # well within the waiting call's queue_timeout
            first.result()
    finally:
        server.stop()
    assert handler.processed == 1
    assert server.counters.queue_timeouts == 1
    assert server.counters.calls_refused == 1


def test_a_call_whose_message_never_arrives_is_cancelled_after_the_message_timeout() -> None:
    """A client that opens a call and trickles nothing holds it only ``message_timeout``,
    not until a deadline of its own choosing; the admitted slot is free again after."""
    handler = SlowHandler()
    handler.processed = 1  # no call holds its slot: every process() answers at once
    server = GrpcServer(
        handler, "127.0.0.1", 0, GrpcLimits(max_in_flight=1, max_rpcs=1, message_timeout=0.5)
    )
    server.start()
    endpoint = f"127.0.0.1:{server.port}"
    never = threading.Event()

    def silent() -> Iterator[bytes]:
        never.wait(20)
        yield b""

    try:
        with grpc.insecure_channel(endpoint) as channel:
            stalled = channel.stream_unary(EXPORT_METHOD)
            started = time.monotonic()
            with pytest.raises(grpc.RpcError) as caught:
                stalled(silent(), timeout=15)
            assert caught.value.code() == grpc.StatusCode.CANCELLED
            assert time.monotonic() - started < 5
        call_export(endpoint, b"")  # the one admitted call is free again
    finally:
        never.set()
        server.stop()
    assert server.counters.message_timeouts == 1


# -- OTLP/gRPC over a real socket ---------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReceiverProcess]:
    """One receiver subprocess for the protocol tests (a small message limit to test it)."""
    db = tmp_path_factory.mktemp("serve-grpc") / "r.duckdb"
    with ReceiverProcess(db, "--max-body-bytes", "64KiB") as process:
        yield process


@pytest.mark.integration
class TestProtocol:
    def test_the_startup_line_names_both_endpoints(self, server: ReceiverProcess) -> None:
        """ReceiverProcess reads the gRPC endpoint from the "listening" line, on a free port."""
        assert server.grpc_endpoint == f"127.0.0.1:{server.grpc_port}"
        assert server.grpc_port not in (0, DEFAULT_GRPC_PORT, server.port)
        assert f"and OTLP/gRPC on {server.grpc_endpoint}" in server.output[0]

    def test_the_official_exporter_succeeds_plain_and_gzip(self, server: ReceiverProcess) -> None:
        """The gRPC OTLPSpanExporter (insecure, plain and gzip) gets SUCCESS."""
        for compression in (grpc.Compression.NoCompression, grpc.Compression.Gzip):
            exporter = OTLPSpanExporter(
                endpoint=server.grpc_endpoint, insecure=True, compression=compression
            )
            assert exporter.export(sdk_spans(20)) == SpanExportResult.SUCCESS
            exporter.shutdown()

    def test_success_is_an_empty_response(self, server: ReceiverProcess) -> None:
        """OK carries an ExportTraceServiceResponse without partial_success; empty is OK too."""
        response = call_export(server.grpc_endpoint, proto_body(sdk_spans(3)))
        assert not response.HasField("partial_success")
        assert not call_export(server.grpc_endpoint, b"").HasField("partial_success")

    def test_quarantined_spans_are_a_partial_success(self, server: ReceiverProcess) -> None:
        """Spans the store cannot hold are counted in partial_success with the reason."""
        response = call_export(server.grpc_endpoint, proto_body(sdk_spans(5, bad_last=True)))
        assert response.partial_success.rejected_spans == 1
        assert "negative_duration" in response.partial_success.error_message

    def test_an_undecodable_message_is_invalid_argument(self, server: ReceiverProcess) -> None:
        """Bytes that are no ExportTraceServiceRequest: INVALID_ARGUMENT saying why."""
        error = refusal(server.grpc_endpoint, b"\xff\x00garbage")
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "invalid_protobuf" in error.details()

    def test_a_message_over_max_body_bytes_is_resource_exhausted(
        self, server: ReceiverProcess
    ) -> None:
        """Over --max-body-bytes, as sent or once gunzipped (grpcio checks after it): refused."""
        big = b"\x0a" * (80 * 1024)
        error = refusal(server.grpc_endpoint, big)
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert len(gzip.compress(big)) < 64 * 1024
        error = refusal(server.grpc_endpoint, big, compression=grpc.Compression.Gzip)
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED

    def test_other_services_are_unimplemented(self, server: ReceiverProcess) -> None:
        """Only traces: the metrics service's Export is UNIMPLEMENTED."""
        method = "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export"
        error = refusal(server.grpc_endpoint, b"", method=method)
        assert error.code() == grpc.StatusCode.UNIMPLEMENTED


@pytest.mark.integration
def test_spans_exported_over_grpc_land_exactly_once(tmp_path: Path) -> None:
    """Plain and gzip exports, and a retried batch, are stored once each after stop."""
    db = tmp_path / "r.duckdb"
    plain, zipped = sdk_spans(30, name="plain"), sdk_spans(30, name="gzip")
    with ReceiverProcess(db) as server:
        exporter = OTLPSpanExporter(endpoint=server.grpc_endpoint, insecure=True)
        assert exporter.export(plain) == SpanExportResult.SUCCESS
        # A client retry after a lost acknowledgement: stored once.
        assert exporter.export(plain) == SpanExportResult.SUCCESS
        exporter.shutdown()
        exporter = OTLPSpanExporter(
            endpoint=server.grpc_endpoint, insecure=True, compression=grpc.Compression.Gzip
        )
        assert exporter.export(zipped) == SpanExportResult.SUCCESS
        exporter.shutdown()
        assert server.stop() == 0
    stored = stored_ids(db)
    assert len(stored) == len(set(stored))
    assert set(stored) == ids(plain) | ids(zipped)
    assert "30 duplicates" in "\n".join(server.output)
    assert not any(db.with_suffix(".spool").glob("*.seg"))


@pytest.mark.integration
@pytest.mark.parametrize("accept", [False, True])
def test_simulated_spans_are_refused_unless_the_receiver_accepts_them(
    tmp_path: Path, accept: bool
) -> None:
    """Simulated spans over gRPC: a partial success (quarantined) unless --accept-simulated."""
    db = tmp_path / "r.duckdb"
    observed, simulated = sdk_spans(5, name="real"), sdk_spans(3, name="sim", origin="simulated")
    flags = ("--accept-simulated",) if accept else ()
    with ReceiverProcess(db, *flags) as server:
        response = call_export(server.grpc_endpoint, proto_body(observed + simulated))
        if accept:
            assert not response.HasField("partial_success")
        else:
            assert response.partial_success.rejected_spans == 3
            assert "3 origin_not_accepted" in response.partial_success.error_message
        assert server.stop() == 0
    assert set(stored_ids(db)) == ids(observed) | (ids(simulated) if accept else set())
    assert set(stored_ids(db, "quarantine")) == (set() if accept else ids(simulated))


@pytest.mark.integration
def test_a_token_is_required_in_the_metadata_when_configured(tmp_path: Path) -> None:
    """With RECURSCOPE_TOKEN set, a call needs `authorization: Bearer <token>` metadata;
    without it (or with a wrong one) it is UNAUTHENTICATED and nothing is stored."""
    env = {**os.environ, "RECURSCOPE_TOKEN": "s3cret"}
    refused, accepted = sdk_spans(4, name="refused"), sdk_spans(4, name="accepted")
    with ReceiverProcess(tmp_path / "r.duckdb", env=env) as server:
        body = proto_body(refused)
        error = refusal(server.grpc_endpoint, body)
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED
        assert "--token" in error.details()
        wrong = (("authorization", "Bearer nope"),)
        error = refusal(server.grpc_endpoint, body, metadata=wrong)
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED
        anonymous = OTLPSpanExporter(endpoint=server.grpc_endpoint, insecure=True)
        assert anonymous.export(refused) == SpanExportResult.FAILURE
        anonymous.shutdown()
        exporter = OTLPSpanExporter(
            endpoint=server.grpc_endpoint,
            insecure=True,
            headers={"authorization": "Bearer s3cret"},
        )
        assert exporter.export(accepted) == SpanExportResult.SUCCESS
        exporter.shutdown()
        assert server.stop() == 0
    assert set(stored_ids(tmp_path / "r.duckdb")) == ids(accepted)


HOLD = textwrap.dedent(
    """
    import sys, time
    from recurscope.pipeline.store.locking import open_for_writing
    session = open_for_writing(sys.argv[1], kind="recurscope ingest")
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
    session.close()
    print("released", flush=True)
    """
)


@pytest.mark.integration
@pytest.mark.slow
def test_a_full_spool_is_unavailable_with_retry_info_and_the_exporter_recovers(
    tmp_path: Path,
) -> None:
    """With the store held elsewhere and a tiny backlog limit, a call is UNAVAILABLE with a
    1-2 s RetryInfo where both Go and Python exporters look; the official exporter's retries
    then deliver every span exactly once."""
    db = tmp_path / "r.duckdb"
    Store.open(db).close()
    hold = [sys.executable, "-c", HOLD, str(db), "2"]
    with (
        ReceiverProcess(db, "--max-backlog-bytes", "1") as server,
        subprocess.Popen(hold, stdout=subprocess.PIPE, text=True) as holder,
    ):
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "holding"
        first = sdk_spans(5, name="first")
        call_export(server.grpc_endpoint, proto_body(first))
        error = refusal(server.grpc_endpoint, proto_body(sdk_spans(1)))
        assert error.code() == grpc.StatusCode.UNAVAILABLE
        assert "--max-backlog-bytes" in error.details()
        trailing = dict(error.trailing_metadata())
        retry = error_details_pb2.RetryInfo.FromString(trailing["google.rpc.retryinfo-bin"])
        assert 1 <= retry.retry_delay.seconds <= 2
        status = status_pb2.Status.FromString(trailing["grpc-status-details-bin"])
        assert status.code == grpc.StatusCode.UNAVAILABLE.value[0]
        detail = error_details_pb2.RetryInfo()
        assert status.details[0].Unpack(detail) and detail == retry

        exporter = OTLPSpanExporter(endpoint=server.grpc_endpoint, insecure=True)
        batches = [sdk_spans(50, name=f"batch{i}") for i in range(3)]
        assert [exporter.export(b) for b in batches] == [SpanExportResult.SUCCESS] * 3
        exporter.shutdown()
        assert holder.wait(timeout=30) == 0
        assert server.stop() == 0
    stored = stored_ids(db)
    assert len(stored) == len(set(stored))
    assert set(stored) == ids(first) | set().union(*(ids(b) for b in batches))


# -- kill -9 ------------------------------------------------------------------------------------


class Round:
    """Four gRPC exporters sending to one server until it is killed right after the Nth OK."""

    def __init__(self, server: ReceiverProcess, name: str, kill_after: int) -> None:
        self.server = server
        self.name = name
        self.kill_after = kill_after
        self.good: Ids = set()
        self.bad: Ids = set()
        self.acknowledged = 0
        self.killed = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        threads = [threading.Thread(target=self.send, args=(w,)) for w in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)

    def send(self, worker: int) -> None:
        # A short timeout: once the server is gone the exporter stops retrying quickly.
        exporter = OTLPSpanExporter(endpoint=self.server.grpc_endpoint, insecure=True, timeout=3)
        try:
            for index in range(500):
                if self.killed.is_set():
                    return
                spans = sdk_spans(20, name=f"{self.name}w{worker}i{index}", bad_last=True)
                if exporter.export(spans) != SpanExportResult.SUCCESS:
                    continue
                with self.lock:
                    self.good.update(ids(spans[:-1]))
                    self.bad.update(ids(spans[-1:]))
                    self.acknowledged += 1
                    if self.acknowledged == self.kill_after:
                        self.server.kill()  # right after the OK: nothing flushed on purpose
                        self.killed.set()
        finally:
            exporter.shutdown()


@pytest.mark.integration
@pytest.mark.slow
def test_acknowledged_spans_survive_kill_9_of_the_receiver(tmp_path: Path) -> None:
    """Three rounds of: export over gRPC from four clients, `kill -9` right after an OK,
    restart. Every acknowledged span is stored once, every acknowledged bad span
    quarantined once."""
    db = tmp_path / "r.duckdb"
    good: Ids = set()
    bad: Ids = set()
    for round_number in range(3):
        with ReceiverProcess(db) as server:
            sending = Round(server, f"r{round_number}", kill_after=25 + 10 * round_number)
            sending.run()
            assert sending.killed.is_set()
            good |= sending.good
            bad |= sending.bad
    with ReceiverProcess(db) as server:
        assert server.stop() == 0
    stored = stored_ids(db)
    assert len(stored) == len(set(stored)), "a span was stored twice"
    assert good <= set(stored), "an acknowledged span was lost"
    quarantined = stored_ids(db, "quarantine")
    assert len(quarantined) == len(set(quarantined)), "a quarantine row was stored twice"
    assert bad <= set(quarantined)
    assert not any(db.with_suffix(".spool").glob("*.seg"))
