"""`recurscope serve`: the durable spool, OTLP/HTTP semantics, real exporters, overload, shutdown."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from google.rpc import status_pb2
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from recurscope.cli import main
from recurscope.cli.serve import add_command
from recurscope.pipeline import Store
from recurscope.pipeline.ingest.receiver import (
    Receiver,
    ReceiverConfig,
    decode_body,
)
from recurscope.pipeline.ingest.spool import (
    HEADER_SIZE,
    CorruptRegion,
    Spool,
    SpoolLockedError,
    SpoolRecord,
    encode_record,
)
from recurscope.pipeline.records import DecodeLimits
from recurscope.pipeline.testing import ReceiverProcess

PROTO = {"Content-Type": "application/x-protobuf"}
JSON = {"Content-Type": "application/json"}


# -- helpers ------------------------------------------------------------------------------------


def sdk_spans(
    count: int, *, name: str = "span", bad_every: int = 0, origin: str | None = None
) -> list[ReadableSpan]:
    """``count`` finished SDK spans (real ids); every ``bad_every``-th one ends before it starts."""
    exporter = InMemorySpanExporter()
    resource = {"service.name": "receiver-test"}
    if origin is not None:
        resource["recurscope.origin"] = origin
    provider = TracerProvider(resource=Resource.create(resource))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("recurscope.tests", "1.0")
    start = 1_700_000_000_000_000_000
    for index in range(count):
        span = tracer.start_span(f"{name}-{index}", start_time=start + index * 1000)
        span.set_attribute("index", index)
        span.set_attribute("recurscope.history.ops", ["filter", "map"])
        bad = bad_every and index % bad_every == bad_every - 1
        span.end(end_time=start + index * 1000 + (-10 if bad else 500))
    provider.shutdown()
    return list(exporter.get_finished_spans())


def ids(spans: list[ReadableSpan]) -> set[tuple[str, str]]:
    return {(f"{s.context.trace_id:032x}", f"{s.context.span_id:016x}") for s in spans if s.context}


def proto_body(spans: list[ReadableSpan]) -> bytes:
    body: bytes = encode_spans(spans).SerializeToString()
    return body


def json_body(spans: list[ReadableSpan]) -> bytes:
    from opentelemetry.exporter.otlp.json.common.trace_encoder import encode_spans as encode_json

    return encode_json(spans).to_json().encode()


def stored_ids(db: Path) -> list[tuple[str, str]]:
    """Every (TraceId, SpanId) in the store, repeats included (the server must be stopped)."""
    with Store.open(db, read_only=True) as store:
        return [(str(t), str(s)) for t, s in store.query("SELECT TraceId, SpanId FROM otel_traces")]


def status_message(response: requests.Response) -> str:
    if response.headers["Content-Type"] == "application/json":
        return str(response.json()["message"])
    status = status_pb2.Status()
    status.ParseFromString(response.content)
    return str(status.message)


# -- the spool ------------------------------------------------------------------------------------


class TestSpool:
    def test_records_come_back_in_order_with_their_attachments(self, tmp_path: Path) -> None:
        """Appended bodies are read back byte for byte, in order, with the in-memory decode."""
        with Spool.open(tmp_path / "spool", attachment_budget=10) as spool:
            tickets = [
                spool.append(
                    f"body-{i}".encode(),
                    content_type="application/x-protobuf",
                    content_encoding="gzip" if i % 2 else None,
                    attachment=("decoded", i),
                    weight=1,
                )
                for i in range(5)
            ]
            spool.commit(tickets[-1])
            (info,) = spool.segments()
            assert info.durable_end == tickets[-1].end and not info.sealed
            records = list(spool.read(info.seq, HEADER_SIZE, info.durable_end))
        assert [r.body for r in records if isinstance(r, SpoolRecord)] == [
            f"body-{i}".encode() for i in range(5)
        ]
        assert [r.attachment for r in records if isinstance(r, SpoolRecord)] == [
            ("decoded", i) for i in range(5)
        ]
        assert [r.content_encoding for r in records if isinstance(r, SpoolRecord)] == [
            None,
            "gzip",
            None,
            "gzip",
            None,
        ]

    def test_attachments_beyond_the_budget_are_not_kept(self, tmp_path: Path) -> None:
        """Memory is bounded: past the budget the drainer decodes the body again."""
        with Spool.open(tmp_path / "spool", attachment_budget=3) as spool:
            for i in range(3):
                spool.append(b"x", content_type="a/b", attachment=i, weight=2)
            (info,) = spool.segments()
            kept = [r.attachment for r in spool.read(info.seq, 0) if isinstance(r, SpoolRecord)]
        assert kept == [0, None, None]

    def test_a_restart_replays_leftovers_and_ignores_a_torn_tail(self, tmp_path: Path) -> None:
        """Segments survive close/reopen; a half-written last record (never acknowledged) is skipped."""
        directory = tmp_path / "spool"
        with Spool.open(directory) as spool:
            spool.commit(spool.append(b"one", content_type="application/json"))
            spool.commit(spool.append(b"two", content_type="application/json"))
            (info,) = spool.segments()
        torn = encode_record(b"three", "application/json", None, 1)
        with info.path.open("ab") as handle:
            handle.write(torn[: len(torn) - 2])
        with Spool.open(directory) as spool:
            leftover = [s for s in spool.segments() if s.leftover]
            assert len(leftover) == 1 and leftover[0].drained is None
            records = list(spool.read(leftover[0].seq, 0))
            assert [r.body for r in records if isinstance(r, SpoolRecord)] == [b"one", b"two"]
            assert not any(isinstance(r, CorruptRegion) for r in records)
            assert spool.segments()[-1].seq > leftover[0].seq  # new records go to a new file

    def test_corrupt_bytes_are_reported_and_reading_resumes(self, tmp_path: Path) -> None:
        """A flipped byte costs that record only: later records are still read, the bad bytes kept."""
        directory = tmp_path / "spool"
        with Spool.open(directory) as spool:
            for body in (b"first", b"second", b"third"):
                spool.commit(spool.append(body, content_type="application/json"))
            (info,) = spool.segments()
        data = bytearray(info.path.read_bytes())
        data[data.index(b"second")] ^= 0xFF
        info.path.write_bytes(bytes(data))
        with Spool.open(directory) as spool:
            records = list(spool.read(info.seq, 0))
        assert [r.body for r in records if isinstance(r, SpoolRecord)] == [b"first", b"third"]
        (region,) = [r for r in records if isinstance(r, CorruptRegion)]
        assert region.detail == "checksum mismatch"
        assert list((directory / "corrupt").iterdir())

    def test_one_process_per_spool(self, tmp_path: Path) -> None:
        """A second receiver on the same spool is refused with a message naming the first."""
        code = textwrap.dedent(
            """
            import sys
            from recurscope.pipeline.ingest.spool import Spool
            spool = Spool.open(sys.argv[1])
            print("ready", flush=True)
            sys.stdin.readline()
            """
        )
        holder = subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path / "spool")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert holder.stdout is not None and holder.stdin is not None
        try:
            assert holder.stdout.readline().strip() == "ready"
            with pytest.raises(SpoolLockedError, match=rf"process {holder.pid}"):
                Spool.open(tmp_path / "spool")
        finally:
            holder.stdin.write("\n")
            holder.stdin.close()
            holder.wait(timeout=30)

    def test_segments_rotate_and_the_backlog_counts_undrained_bytes(self, tmp_path: Path) -> None:
        """Past segment_bytes a new segment starts; drained and removed segments leave the backlog."""
        with Spool.open(tmp_path / "spool", segment_bytes=200) as spool:
            for _ in range(4):
                spool.commit(spool.append(b"x" * 100, content_type="a/b"))
            segments = spool.segments()
            assert len(segments) >= 2 and all(s.sealed for s in segments[:-1])
            assert spool.backlog_bytes == sum(s.durable_end - HEADER_SIZE for s in segments)
            first = segments[0]
            spool.mark_drained(first.seq, first.durable_end)
            spool.remove(first.seq)
            assert first.seq not in {s.seq for s in spool.segments()}
            assert not first.path.exists()

    def test_concurrent_commits_share_fsyncs(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Group commit: many threads committing at once need fewer syncs than commits."""
        syncs = 0
        real = os.fdatasync

        def counting(fd: int) -> None:
            nonlocal syncs
            syncs += 1
            time.sleep(0.002)  # a disk-like sync, so committers pile up
            real(fd)

        monkeypatch.setattr(os, "fdatasync", counting)
        with Spool.open(tmp_path / "spool") as spool:
            before = syncs

            def one(i: int) -> None:
                spool.commit(spool.append(b"%d" % i, content_type="a/b"))

            with ThreadPoolExecutor(8) as pool:
                list(pool.map(one, range(200)))
            used = syncs - before
            (info,) = spool.segments()
            assert info.durable_end == info.path.stat().st_size
        assert used < 200


# -- decoding -----------------------------------------------------------------------------------


def test_deflate_bodies_are_accepted_like_gzip() -> None:
    """The Python exporter can send Content-Encoding: deflate; zlib and raw deflate both decode."""
    import zlib

    body = proto_body(sdk_spans(3))
    limits = DecodeLimits()
    plain = decode_body(body, "application/x-protobuf", None, limits)
    zlibbed = decode_body(zlib.compress(body), "application/x-protobuf", "deflate", limits)
    raw = zlib.compressobj(wbits=-15)
    raw_body = raw.compress(body) + raw.flush()
    rawed = decode_body(raw_body, "application/x-protobuf", "deflate", limits)
    gzipped = decode_body(gzip.compress(body), "application/x-protobuf", "gzip", limits)
    assert plain.rows == zlibbed.rows == rawed.rows == gzipped.rows
    assert len(plain.rows) == 3


# -- OTLP/HTTP over a real socket -------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReceiverProcess]:
    """One receiver subprocess for the protocol tests (small limits to test 413)."""
    db = tmp_path_factory.mktemp("serve") / "r.duckdb"
    with ReceiverProcess(
        db, "--max-body-bytes", "256KiB", "--max-decompressed-bytes", "512KiB"
    ) as process:
        yield process


@pytest.mark.integration
class TestProtocol:
    def test_the_official_protobuf_exporter_succeeds(self, server: ReceiverProcess) -> None:
        """OTLPSpanExporter (protobuf, plain and gzip) gets SUCCESS from the receiver."""
        for compression in (Compression.NoCompression, Compression.Gzip):
            exporter = OTLPSpanExporter(endpoint=server.endpoint, compression=compression)
            assert exporter.export(sdk_spans(20)) == SpanExportResult.SUCCESS
            exporter.shutdown()  # type: ignore[no-untyped-call]

    def test_success_is_an_empty_response_in_the_request_encoding(
        self, server: ReceiverProcess
    ) -> None:
        """200 with an ExportTraceServiceResponse: protobuf for protobuf, JSON for JSON."""
        spans = sdk_spans(4)
        response = requests.post(server.endpoint, data=proto_body(spans), headers=PROTO, timeout=10)
        assert response.status_code == 200
        assert response.headers["Content-Type"] == "application/x-protobuf"
        parsed = ExportTraceServiceResponse()
        parsed.ParseFromString(response.content)
        assert not parsed.HasField("partial_success")
        response = requests.post(server.endpoint, data=json_body(spans), headers=JSON, timeout=10)
        assert response.status_code == 200
        assert response.headers["Content-Type"] == "application/json"
        assert response.json() == {}

    def test_quarantined_spans_are_a_partial_success(self, server: ReceiverProcess) -> None:
        """Spans the store cannot hold are counted in partial_success with a reason."""
        spans = sdk_spans(10, bad_every=5)
        response = requests.post(server.endpoint, data=proto_body(spans), headers=PROTO, timeout=10)
        assert response.status_code == 200
        parsed = ExportTraceServiceResponse()
        parsed.ParseFromString(response.content)
        assert parsed.partial_success.rejected_spans == 2
        assert "negative_duration" in parsed.partial_success.error_message
        response = requests.post(server.endpoint, data=json_body(spans), headers=JSON, timeout=10)
        assert response.json()["partialSuccess"]["rejectedSpans"] == "2"

    def test_one_malformed_span_is_a_partial_success_not_a_dropped_connection(
        self, server: ReceiverProcess
    ) -> None:
        """A 5,000-digit time, text that is not UTF-8, a repeated key: 200, one span refused."""
        spans = sdk_spans(3, name="bad-broken-text")
        request = json.loads(json_body(spans))
        request["resourceSpans"][0]["scopeSpans"][0]["spans"][1]["startTimeUnixNano"] = "9" * 5000
        huge_time = json.dumps(request).encode()
        not_utf8 = proto_body(spans).replace(b"bad-broken-text-1", b"bad-\xff\xfeoken-text-1")
        repeated = json_body(spans).replace(
            b'"name": "bad-broken-text-1"', b'"name": "bad-broken-text-1", "name": "x"'
        )
        assert repeated != json_body(spans)
        for body, headers, reason in (
            (huge_time, JSON, "invalid_value"),
            (not_utf8, PROTO, "invalid_utf8"),
            (repeated, JSON, "duplicate_key"),
        ):
            response = requests.post(server.endpoint, data=body, headers=headers, timeout=10)
            assert response.status_code == 200, (reason, response.content)
            if headers is JSON:
                partial = response.json()["partialSuccess"]
                assert partial["rejectedSpans"] == "1" and reason in partial["errorMessage"]
            else:
                parsed = ExportTraceServiceResponse()
                parsed.ParseFromString(response.content)
                assert parsed.partial_success.rejected_spans == 1
                assert reason in parsed.partial_success.error_message

    def test_undecodable_bodies_are_400_with_a_status(self, server: ReceiverProcess) -> None:
        """Garbage gets 400 and a google.rpc.Status saying why, in the request's encoding."""
        response = requests.post(
            server.endpoint, data=b"\xff\x00garbage", headers=PROTO, timeout=10
        )
        assert response.status_code == 400
        assert "invalid_protobuf" in status_message(response)
        response = requests.post(
            server.endpoint, data=b'{"resourceSpans": [', headers=JSON, timeout=10
        )
        assert response.status_code == 400
        assert response.headers["Content-Type"] == "application/json"
        assert "truncated_json" in status_message(response)

    def test_an_empty_request_is_a_success(self, server: ReceiverProcess) -> None:
        """The spec: a request without telemetry gets success."""
        for headers in (PROTO, JSON):
            response = requests.post(server.endpoint, data=b"", headers=headers, timeout=10)
            assert response.status_code == 200

    def test_oversize_bodies_are_413(self, server: ReceiverProcess) -> None:
        """Over --max-body-bytes, or over --max-decompressed-bytes once unzipped: 413."""
        response = requests.post(
            server.endpoint, data=b"\x0a" * (300 * 1024), headers=PROTO, timeout=10
        )
        assert response.status_code == 413
        assert "--max-body-bytes" in status_message(response)
        bomb = gzip.compress(b"\x00" * (2 * 1024 * 1024))
        response = requests.post(
            server.endpoint,
            data=bomb,
            headers={**PROTO, "Content-Encoding": "gzip"},
            timeout=10,
        )
        assert response.status_code == 413

    def test_wrong_content_type_or_encoding_is_415(self, server: ReceiverProcess) -> None:
        """Only OTLP's two media types and gzip/deflate/identity are accepted."""
        response = requests.post(
            server.endpoint, data=b"x", headers={"Content-Type": "text/plain"}, timeout=10
        )
        assert response.status_code == 415
        assert "application/x-protobuf" in status_message(response)
        response = requests.post(
            server.endpoint, data=b"x", headers={**PROTO, "Content-Encoding": "br"}, timeout=10
        )
        assert response.status_code == 415

    def test_other_paths_are_404_and_other_methods_405(self, server: ReceiverProcess) -> None:
        """Only POST /v1/traces exists; metrics and logs are pointed elsewhere."""
        base = server.endpoint.removesuffix("/v1/traces")
        response = requests.post(f"{base}/v1/metrics", data=b"", headers=PROTO, timeout=10)
        assert response.status_code == 404
        assert "traces only" in status_message(response)
        assert requests.get(f"{base}/", timeout=10).status_code == 404
        for method in ("GET", "PUT", "DELETE", "PATCH"):
            response = requests.request(method, server.endpoint, timeout=10)
            assert response.status_code == 405
            assert response.headers["Allow"] == "POST"

    def test_keep_alive_survives_error_responses(self, server: ReceiverProcess) -> None:
        """Error answers read the body first, so the next request on the connection works."""
        with requests.Session() as session:
            for _ in range(3):
                bad = session.post(
                    server.endpoint, data=b"x" * 1000, headers={"Content-Type": "text/plain"}
                )
                assert bad.status_code == 415
                good = session.post(server.endpoint, data=proto_body(sdk_spans(2)), headers=PROTO)
                assert good.status_code == 200

    def test_chunked_bodies_are_read(self, server: ReceiverProcess) -> None:
        """A client streaming its body (Transfer-Encoding: chunked) is understood."""
        body = proto_body(sdk_spans(5))

        def chunks() -> Iterator[bytes]:
            yield body[:10]
            yield body[10:]

        response = requests.post(server.endpoint, data=chunks(), headers=PROTO, timeout=10)
        assert response.status_code == 200


@pytest.mark.integration
def test_spans_from_real_clients_land_exactly_once(tmp_path: Path) -> None:
    """Protobuf (official exporter, BatchSpanProcessor) and JSON (requests) spans, all stored once."""
    db = tmp_path / "r.duckdb"
    with ReceiverProcess(db) as server:
        provider = TracerProvider(resource=Resource.create({"service.name": "client"}))
        provider.add_span_processor(
            BatchSpanProcessor(OTLPSpanExporter(endpoint=server.endpoint), schedule_delay_millis=50)
        )
        tracer = provider.get_tracer("client")
        sent: set[tuple[str, str]] = set()
        for index in range(300):
            with tracer.start_as_current_span(f"op-{index}") as span:
                context = span.get_span_context()
                sent.add((f"{context.trace_id:032x}", f"{context.span_id:016x}"))
        provider.shutdown()
        json_spans = sdk_spans(40, name="json")
        response = requests.post(
            server.endpoint, data=json_body(json_spans), headers=JSON, timeout=10
        )
        assert response.status_code == 200
        # A client retry after a lost acknowledgement: stored once.
        response = requests.post(
            server.endpoint, data=json_body(json_spans), headers=JSON, timeout=10
        )
        assert response.status_code == 200
        assert server.stop() == 0
    stored = stored_ids(db)
    assert len(stored) == len(set(stored))
    assert set(stored) == sent | ids(json_spans)
    assert not any(db.with_suffix(".spool").glob("*.seg"))
    assert "40 duplicates" in "\n".join(server.output)


@pytest.mark.integration
@pytest.mark.parametrize("accept", [False, True])
def test_simulated_spans_are_refused_unless_the_receiver_accepts_them(
    tmp_path: Path, accept: bool
) -> None:
    """A receiver collects observed evidence: simulated spans are quarantined, with the reason."""
    db = tmp_path / "r.duckdb"
    observed, simulated = sdk_spans(5, name="real"), sdk_spans(3, name="sim", origin="simulated")
    flags = ("--accept-simulated",) if accept else ()
    with ReceiverProcess(db, *flags) as server:
        response = requests.post(
            server.endpoint, data=proto_body(observed + simulated), headers=PROTO, timeout=10
        )
        assert response.status_code == 200
        parsed = ExportTraceServiceResponse()
        parsed.ParseFromString(response.content)
        if accept:
            assert not parsed.HasField("partial_success")
        else:
            assert parsed.partial_success.rejected_spans == 3
            message = parsed.partial_success.error_message
            assert "3 origin_not_accepted" in message
        assert server.stop() == 0
    assert set(stored_ids(db)) == ids(observed) | (ids(simulated) if accept else set())
    with Store.open(db, read_only=True) as store:
        reasons = [r[0] for r in store.query("SELECT Reason FROM quarantine")]
        detail = [r[0] for r in store.query("SELECT Detail FROM quarantine")]
    assert reasons == ([] if accept else ["origin_not_accepted"] * 3)
    assert accept or all("--accept-simulated" in d for d in detail)


@pytest.mark.integration
def test_a_token_is_required_when_configured(tmp_path: Path) -> None:
    """With RECURSCOPE_TOKEN set, requests without 'Authorization: Bearer <token>' get 401."""
    env = {**os.environ, "RECURSCOPE_TOKEN": "s3cret"}
    with ReceiverProcess(tmp_path / "r.duckdb", env=env) as server:
        body = proto_body(sdk_spans(2))
        response = requests.post(server.endpoint, data=body, headers=PROTO, timeout=10)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert "--token" in status_message(response)
        wrong = {**PROTO, "Authorization": "Bearer nope"}
        assert (
            requests.post(server.endpoint, data=body, headers=wrong, timeout=10).status_code == 401
        )
        exporter = OTLPSpanExporter(
            endpoint=server.endpoint, headers={"Authorization": "Bearer s3cret"}
        )
        assert exporter.export(sdk_spans(2)) == SpanExportResult.SUCCESS
        assert server.stop() == 0


# -- overload and retries ---------------------------------------------------------------------------

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
def test_overload_answers_503_with_retry_after_and_the_exporter_recovers(tmp_path: Path) -> None:
    """With the store held elsewhere and a tiny spool limit, requests get 503 + a short
    Retry-After; the official exporter's retries deliver every span exactly once."""
    db = tmp_path / "r.duckdb"
    Store.open(db).close()
    with ReceiverProcess(db, "--max-backlog-bytes", "1") as server:
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(db), "2"], stdout=subprocess.PIPE, text=True
        )
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "holding"
        first = sdk_spans(5, name="first")
        assert (
            requests.post(
                server.endpoint, data=proto_body(first), headers=PROTO, timeout=10
            ).status_code
            == 200
        )
        refused = requests.post(
            server.endpoint, data=proto_body(sdk_spans(1)), headers=PROTO, timeout=10
        )
        assert refused.status_code == 503
        retry_after = int(refused.headers["Retry-After"])
        assert 1 <= retry_after <= 2  # well inside the exporter's 10 s timeout
        assert "--max-backlog-bytes" in status_message(refused)

        exporter = OTLPSpanExporter(endpoint=server.endpoint)
        batches = [sdk_spans(50, name=f"batch{i}") for i in range(3)]
        results = [exporter.export(batch) for batch in batches]
        assert results == [SpanExportResult.SUCCESS] * 3
        assert holder.wait(timeout=30) == 0
        assert server.stop() == 0
    stored = stored_ids(db)
    assert len(stored) == len(set(stored))
    expected = ids(first) | set().union(*(ids(b) for b in batches))
    assert set(stored) == expected
    assert "throttled" in server.output[-1] and " 0 throttled" not in server.output[-1]


@pytest.mark.integration
def test_the_receiver_acknowledges_while_another_writer_holds_the_store(tmp_path: Path) -> None:
    """While `ingest` holds the file, exports still succeed (spooled) and land afterwards."""
    db = tmp_path / "r.duckdb"
    Store.open(db).close()
    with ReceiverProcess(db) as server:
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(db), "1.5"], stdout=subprocess.PIPE, text=True
        )
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "holding"
        spans = sdk_spans(100)
        started = time.monotonic()
        assert OTLPSpanExporter(endpoint=server.endpoint).export(spans) == SpanExportResult.SUCCESS
        assert time.monotonic() - started < 1.0  # acknowledged from the spool, not after the wait
        assert holder.wait(timeout=30) == 0
        assert server.stop() == 0
    assert set(stored_ids(db)) == ids(spans)
    assert "waiting for recurscope ingest" in server.stderr


# -- shutdown ----------------------------------------------------------------------------------------


@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_finishes_requests_stores_the_spool_and_exits_0(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """SIGTERM/SIGINT mid-traffic: every acknowledged span is stored, the spool is empty, exit 0."""
    db = tmp_path / "r.duckdb"
    acknowledged: set[tuple[str, str]] = set()
    lock = threading.Lock()
    stop = threading.Event()
    with ReceiverProcess(db) as server:

        def send(worker: int) -> None:
            with requests.Session() as session:
                for index in range(1000):
                    if stop.is_set():
                        return
                    spans = sdk_spans(20, name=f"w{worker}-{index}")
                    try:
                        response = session.post(
                            server.endpoint, data=proto_body(spans), headers=PROTO, timeout=10
                        )
                    except requests.RequestException:
                        return  # the server stopped listening
                    if response.status_code == 200:
                        with lock:
                            acknowledged.update(ids(spans))

        threads = [threading.Thread(target=send, args=(w,)) for w in range(3)]
        for thread in threads:
            thread.start()
        while len(acknowledged) < 200:
            time.sleep(0.01)
        code = server.stop(sig)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    assert code == 0
    stored = stored_ids(db)
    assert len(stored) == len(set(stored))
    assert acknowledged <= set(stored)
    assert not any(db.with_suffix(".spool").glob("*.seg"))
    assert "stopped:" in server.output[-1] and "left in" not in server.output[-1]


def test_stop_stores_the_spool_in_process(tmp_path: Path) -> None:
    """Receiver.start/stop in one process: acknowledged spans are in the store after stop()."""
    config = ReceiverConfig(db_path=tmp_path / "r.duckdb", port=0)
    receiver = Receiver(config)
    receiver.start()
    try:
        spans = sdk_spans(30)
        response = requests.post(receiver.url, data=proto_body(spans), headers=PROTO, timeout=10)
        assert response.status_code == 200
    finally:
        assert receiver.stop() is True
    assert set(stored_ids(config.db_path)) == ids(spans)
    assert receiver.stats.snapshot()["spans_stored"] == 30


def test_a_wrong_store_fails_at_start_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --db that is not a recurscope store stops the command at once, exit 1."""
    import duckdb

    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).execute("CREATE TABLE t (x INT)").close()
    assert main(["serve", "--db", str(other), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "not a recurscope store" in err and "Traceback" not in err
    assert err.startswith("recurscope serve: error: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.duckdb"]  # no spool made


def test_a_taken_port_fails_before_anything_is_created(tmp_path: Path) -> None:
    """Receiver.start binds HTTP and gRPC first: a port in use creates no store or spool."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        for config in (
            ReceiverConfig(db_path=tmp_path / "data" / "r.duckdb", port=port, grpc_port=None),
            ReceiverConfig(db_path=tmp_path / "data" / "r.duckdb", port=0, grpc_port=port),
        ):
            with pytest.raises(OSError):
                Receiver(config).start()
    assert list(tmp_path.iterdir()) == []


# -- the command line -------------------------------------------------------------------------------


def test_serve_registers_with_help_ending_in_an_example() -> None:
    """`recurscope serve --help` exists, and its help ends with an example line."""
    parser = argparse.ArgumentParser(prog="recurscope")
    subparsers = parser.add_subparsers()
    add_command(subparsers)
    serve = subparsers.choices["serve"]
    help_text = serve.format_help().strip()
    assert help_text.splitlines()[-1].startswith("Example: recurscope serve")
    args = parser.parse_args(["serve", "--port", "0", "--max-body-bytes", "1MiB"])
    assert args.max_body_bytes == 1024 * 1024 and callable(args.func)


def test_the_request_encoder_matches_the_proto_classes() -> None:
    """Guard for the helpers above: the proto body is a real ExportTraceServiceRequest."""
    request = ExportTraceServiceRequest()
    request.ParseFromString(proto_body(sdk_spans(2)))
    assert len(request.resource_spans[0].scope_spans[0].spans) == 2
    assert json.loads(json_body(sdk_spans(1)))["resourceSpans"]
