"""Helpers for testing code that produces or ingests OTLP files.

- :func:`otlp_json_from_proto` encodes a protobuf request as OTLP JSON the
  way the Collector and the OTel file exporters do (hex ids), which
  ``google.protobuf.json_format`` alone gets wrong;
- :func:`sdk_request` records real spans with the OTel SDK and returns the
  protobuf request its OTLP exporters would send;
- :func:`write_jsonl` writes a large synthetic OTLP JSON-lines file quickly,
  for benchmarks and memory tests;
- :func:`add_synthetic_spans` puts synthetic sessions (and compact span
  specs) straight into a store's ``otel_traces``, for tests of what reads it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from recurscope.instrumentation import semconv as sc

from .evidence.models import sql_text
from .ingest.receiver import DEFAULT_HOST

if TYPE_CHECKING:
    import duckdb
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

__all__ = [
    "ReceiverProcess",
    "add_synthetic_spans",
    "create_otel_traces_table",
    "expand_span",
    "insert_span_specs",
    "insert_synthetic_spans",
    "otlp_json_from_proto",
    "sdk_request",
    "synthetic_lines",
    "write_jsonl",
]

_ID_KEYS = frozenset({"traceId", "spanId", "parentSpanId"})


def otlp_json_from_proto(request: ExportTraceServiceRequest) -> dict[str, Any]:
    """OTLP JSON for ``request``: camelCase keys, int64 as strings, enums as numbers,
    and trace/span ids as lower-case hex (proto3 JSON would write base64)."""
    from google.protobuf import json_format

    data = json_format.MessageToDict(request, use_integers_for_enums=True)

    def fix(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {
                key: base64.b64decode(value).hex()
                if key in _ID_KEYS and isinstance(value, str)
                else fix(value)
                for key, value in obj.items()
            }
        if isinstance(obj, list):
            return [fix(item) for item in obj]
        return obj

    result: dict[str, Any] = fix(data)
    return result


def sdk_request(
    spans: int = 3, *, service_name: str = "recurscope-test"
) -> ExportTraceServiceRequest:
    """Record ``spans`` nested spans with the OTel SDK; return them as an OTLP request.

    Uses an ``InMemorySpanExporter`` and the OTLP exporters' own encoder
    (``encode_spans``), so the bytes are exactly what an SDK would send.
    """
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import SpanKind, Status, StatusCode

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("recurscope.testing", "0.1.0")
    with tracer.start_as_current_span("root", kind=SpanKind.SERVER) as root:
        root.set_attribute("gen_ai.conversation.id", "conv-1")
        for index in range(max(spans - 1, 0)):
            with tracer.start_as_current_span(f"child-{index}") as child:
                child.set_attribute("recurscope.history.ops", ["filter", "map"])
                child.set_attribute("recurscope.history.size", index)
                child.set_attribute("ratio", 0.25)
                child.set_attribute("recurscope.history.accessed", index % 2 == 0)
                child.add_event("looked", {"records": index})
                if index == 0:
                    child.set_status(Status(StatusCode.ERROR, "boom"))
    provider.shutdown()
    request: ExportTraceServiceRequest = encode_spans(exporter.get_finished_spans())
    return request


_SYNTHETIC_SPAN = (
    '{{"traceId":"{trace}","spanId":"{span}","parentSpanId":"{parent}",'
    '"name":"recurscope.call","kind":1,"startTimeUnixNano":"{start}",'
    '"endTimeUnixNano":"{end}","attributes":['
    '{{"key":"gen_ai.conversation.id","value":{{"stringValue":"c1"}}}},'
    '{{"key":"recurscope.call.depth","value":{{"intValue":"{depth}"}}}},'
    '{{"key":"recurscope.history.accessed","value":{{"boolValue":true}}}},'
    '{{"key":"recurscope.history.ops","value":{{"arrayValue":{{"values":['
    '{{"stringValue":"filter"}},{{"stringValue":"map"}}]}}}}}}],"status":{{}}}}'
)
_SYNTHETIC_HEAD = (
    '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name",'
    '"value":{"stringValue":"synthetic"}}]},"scopeSpans":[{"scope":{"name":"recurscope",'
    '"version":"0.1"},"spans":['
)


def synthetic_lines(
    spans: int, *, spans_per_line: int = 100, seed: int = 0, start_ns: int = 1_700_000_000 * 10**9
) -> Iterator[bytes]:
    """OTLP JSON lines (bytes, newline-terminated) holding ``spans`` distinct spans.

    Each line is one request: one trace of ``spans_per_line`` spans, each with
    four attributes shaped like recurscope's call spans. Ids come from a
    seeded generator, so the same arguments give the same bytes.
    """
    rng = random.Random(seed)
    remaining = spans
    clock = start_ns
    while remaining > 0:
        count = min(spans_per_line, remaining)
        remaining -= count
        trace_id = f"{rng.getrandbits(128):032x}"
        root = ""
        parts = []
        for index in range(count):
            clock += 1000
            span_id = f"{rng.getrandbits(64) | 1:016x}"
            parts.append(
                _SYNTHETIC_SPAN.format(
                    trace=trace_id,
                    span=span_id,
                    parent=root,
                    start=clock,
                    end=clock + 500,
                    depth=index % 4,
                )
            )
            if index == 0:
                root = span_id
        yield (_SYNTHETIC_HEAD + ",".join(parts) + "]}]}]}\n").encode()


def write_jsonl(path: str | Path, spans: int, *, spans_per_line: int = 100, seed: int = 0) -> Path:
    """Write :func:`synthetic_lines` to ``path``; returns the path."""
    target = Path(path)
    with target.open("wb") as handle:
        for line in synthetic_lines(spans, spans_per_line=spans_per_line, seed=seed):
            handle.write(line)
    return target


def decoder_worker_pids() -> set[int]:
    """Live ingest decoder processes on this machine (Linux: read from ``/proc``)."""
    pids: set[int] = set()
    proc = Path("/proc")
    if not proc.is_dir():
        return pids
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1][:1]
        except (OSError, IndexError):
            continue
        if b"parallel import worker_main" in command and state != "Z":
            pids.add(int(entry.name))
    return pids


def add_synthetic_spans(
    con: Any,
    *,
    sessions: int,
    seed: int = 0,
    specs: Sequence[Mapping[str, Any]] = (),
) -> int:
    """Insert ``sessions`` synthetic sessions and ``specs`` into a store's ``otel_traces``.

    ``con`` is a writable connection to a store made by ``Store.open`` (whose
    table has bookkeeping columns the contract DDL lacks). The spans come
    from ``sql/fixtures/_synthetic_spans.sql`` (origin ``simulated``) and
    :func:`expand_span` for ``specs``; they are
    generated in a scratch in-memory database and copied in one statement.
    Returns the spans added. Nothing is refreshed: call
    ``evidence.refresh`` (or let a writer session do it) afterwards.
    """
    import duckdb

    scratch = duckdb.connect()
    try:
        create_otel_traces_table(scratch)
        insert_synthetic_spans(scratch, sessions=sessions, seed=seed)
        if specs:
            insert_span_specs(scratch, specs)
        rows = scratch.sql("SELECT * FROM otel_traces").to_arrow_table()
    finally:
        scratch.close()
    con.register("_synthetic_rows", rows)
    try:
        columns = ", ".join(f'"{c}"' for c in rows.column_names)
        con.execute(
            f"INSERT INTO otel_traces ({columns}, ScopeAttributes, IngestId) "
            f"SELECT {columns}, MAP {{}}, 0 FROM _synthetic_rows"
        )
    finally:
        con.unregister("_synthetic_rows")
    return int(rows.num_rows)


# --- otel_traces rows for SQL tests and benchmarks -------------------------------


def _count(con: duckdb.DuckDBPyConnection, sql: str) -> int:
    rows = con.execute(sql).fetchall()  # fetched whole: DuckDB 2 keeps a partly read result open
    return int(rows[0][0]) if rows and rows[0][0] is not None else 0


def create_otel_traces_table(con: duckdb.DuckDBPyConnection) -> None:
    """Create the raw span table with the contract columns (tests and benchmarks).

    This is the *contract* DDL (``sql/fixtures/_otel_traces_fixture.sql``); the store
    owns the production table, which may carry extra bookkeeping columns.
    """
    con.execute(sql_text("_otel_traces_fixture"))


def insert_synthetic_spans(
    con: duckdb.DuckDBPyConnection,
    *,
    sessions: int,
    seed: int = 0,
    first_session: int = 0,
    start: datetime = datetime(2026, 3, 2, 9, 0),
    spacing_seconds: int = 30,
    sessions_per_run: int = 40,
) -> int:
    """Insert the spans of ``sessions`` synthetic sessions; return the spans inserted.

    For tests and benchmarks only (``sql/fixtures/_synthetic_spans.sql`` says what the
    data looks like). Deterministic in its arguments; sessions numbered from
    ``first_session``, so calling again with a later ``first_session``
    appends new sessions. Session *n* starts ``n * spacing_seconds`` after
    ``start``; runs hold ``sessions_per_run`` consecutive sessions.
    """
    before = _count(con, "SELECT count(*) FROM otel_traces")
    con.execute(
        sql_text("_synthetic_spans"),
        {
            "first_session": first_session,
            "sessions": sessions,
            "seed": seed,
            "start": start,
            "spacing_seconds": spacing_seconds,
            "sessions_per_run": sessions_per_run,
        },
    )
    return _count(con, "SELECT count(*) FROM otel_traces") - before


# ---------------------------------------------------------------------------
# Compact span descriptions (SQL test cases, examples)

SPAN_KINDS: Final = {
    "call": sc.SPAN_CALL,
    "trim": sc.SPAN_TRIM,
    "shift": sc.SPAN_BOUNDARY_SHIFT,
}
"""Short span kinds of :func:`expand_span`; any other span needs ``name``."""

SPAN_SHORTCUTS: Final = {
    # common
    "prompt_version": sc.PROMPT_VERSION,
    "model": sc.GEN_AI_REQUEST_MODEL,
    "compacted": sc.GEN_AI_CONVERSATION_COMPACTED,
    # call
    "role": sc.CALL_ROLE,
    "call_id": sc.CALL_ID,
    "parent_call_id": sc.CALL_PARENT_ID,
    "depth": sc.CALL_DEPTH,
    "method": sc.CALL_METHOD,
    "outcome": sc.CALL_OUTCOME_STATUS,
    "history_size": sc.HISTORY_SIZE,
    "accessed": sc.HISTORY_ACCESSED,
    "ops": sc.HISTORY_OPS,
    "records_read": sc.HISTORY_RECORDS_READ,
    "evicted": sc.HISTORY_EVICTED,
    "retention": sc.HISTORY_RETENTION,
    "fields_read": sc.HISTORY_FIELDS_READ,
    "static_depth": sc.HISTORY_STATIC_DEPTH,
    "read_depth": sc.HISTORY_READ_DEPTH,
    "read_age": sc.HISTORY_READ_AGE,
    "read_tokens": sc.HISTORY_READ_TOKENS,
    "detection": sc.HISTORY_DETECTION,
    "contextview_shaped": sc.HISTORY_CONTEXTVIEW_SHAPED,
    "reported_accessed": sc.HISTORY_REPORTED_ACCESSED,
    "reported_ops": sc.HISTORY_REPORTED_OPS,
    "fingerprint": sc.CODE_FINGERPRINT,
    "sketch": sc.CODE_SKETCH,
    "language": sc.CODE_LANGUAGE,
    "code": sc.CODE_CONTENT,
    "delegation_kind": sc.DELEGATION_KIND,
    "same_role": sc.DELEGATION_SAME_ROLE,
    "caller_role": sc.DELEGATION_CALLER_ROLE,
    # trim
    "strategy": sc.TRIM_STRATEGY,
    "phase": sc.TRIM_PHASE,
    "trimmed": sc.TRIM_TRIMMED,
    "budget": sc.TRIM_BUDGET,
    "boundary_index": sc.TRIM_BOUNDARY_INDEX,
    "before_size": sc.TRIM_BEFORE_SIZE,
    "after_size": sc.TRIM_AFTER_SIZE,
    "compaction_used": sc.TRIM_COMPACTION_USED,
    "compaction_failed": sc.TRIM_COMPACTION_FAILED,
    "stale_ask_dropped": sc.TRIM_STALE_ASK_DROPPED,
    # boundary shift
    "reason": sc.GOAL_REASON,
    "position": sc.GOAL_POSITION,
    "boundary_from": sc.GOAL_BOUNDARY_FROM,
    "boundary_to": sc.GOAL_BOUNDARY_TO,
    "similarity": sc.GOAL_SIMILARITY,
}
"""Short keys :func:`expand_span` accepts for span attributes."""

_SPEC_KEYS: Final = frozenset(
    {
        "kind",
        "name",
        "session",
        "run",
        "seed",
        "service",
        "service_version",
        "trace",
        "span",
        "parent",
        "at",
        "duration",
        "status",
        "trace_state",
        "attrs",
        "resource",
    }
)


def encode_attribute(value: object) -> str:
    """A value in the ClickHouse exporter's text encoding (bools, ints, JSON arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return json.dumps(list(value), separators=(",", ":"))
    return str(value)


def _hex_id(name: object, digits: int) -> str:
    text = str(name)
    if len(text) == digits and all(c in "0123456789abcdef" for c in text):
        return text
    return hashlib.sha256(text.encode()).hexdigest()[:digits]


def expand_span(
    spec: Mapping[str, Any], *, index: int = 0, base: datetime = datetime(2026, 12, 1, 9, 0)
) -> dict[str, Any]:
    """A full ``otel_traces`` row from a compact description (for SQL test cases).

    ``kind`` is ``call``/``trim``/``shift`` (or give ``name``); ``session``
    sets ``gen_ai.conversation.id`` (``None`` leaves it out); ``run``,
    ``seed``, ``service_version`` set resource attributes; ``trace``,
    ``span``, ``parent`` are short names hashed to hex ids; ``at`` is
    seconds after ``base`` (default: ``index`` minutes) or an ISO datetime;
    ``duration`` seconds. Other keys are :data:`SPAN_SHORTCUTS` or go under
    ``attrs`` with full attribute names; values are encoded as the exporter
    does (:func:`encode_attribute`).
    """
    span_attrs: dict[str, str] = {}
    if spec.get("session", "s1") is not None:
        span_attrs["gen_ai.conversation.id"] = str(spec.get("session", "s1"))
    for key, value in spec.items():
        if key in _SPEC_KEYS:
            continue
        if key not in SPAN_SHORTCUTS:
            raise ValueError(f"unknown span key {key!r}: use attrs: {{full.name: value}}")
        if value is not None:
            span_attrs[SPAN_SHORTCUTS[key]] = encode_attribute(value)
    for key, value in (spec.get("attrs") or {}).items():
        if value is not None:
            span_attrs[str(key)] = encode_attribute(value)
    resource = {"service.name": str(spec.get("service", "agent"))}
    if spec.get("run", "run-1") is not None:
        resource["service.instance.id"] = str(spec.get("run", "run-1"))
    if spec.get("seed") is not None:
        resource["recurscope.seed"] = str(spec["seed"])
    if spec.get("service_version") is not None:
        resource["service.version"] = str(spec["service_version"])
    resource.update({str(k): encode_attribute(v) for k, v in (spec.get("resource") or {}).items()})
    at = spec.get("at", index * 60)
    if isinstance(at, datetime):
        start = at
    elif isinstance(at, str):
        start = datetime.fromisoformat(at)
    else:
        start = base + timedelta(seconds=float(at))
    kind = str(spec.get("kind", "call"))
    name = spec.get("name") or SPAN_KINDS.get(kind)
    if name is None:
        raise ValueError(f"span kind {kind!r} needs a name")
    parent = spec.get("parent")
    return {
        "Timestamp": start,
        "TraceId": _hex_id(spec.get("trace", "t1"), 32),
        "SpanId": _hex_id(spec.get("span", f"span-{index}"), 16),
        "ParentSpanId": "" if parent is None else _hex_id(parent, 16),
        "TraceState": str(spec.get("trace_state", "")),
        "SpanName": str(name),
        "SpanKind": "Internal",
        "ServiceName": resource["service.name"],
        "ResourceAttributes": resource,
        "ScopeName": "recurscope.instrumentation",
        "ScopeVersion": "0.1.0",
        "SpanAttributes": span_attrs,
        "Duration": int(float(spec.get("duration", 1)) * 1_000_000_000),
        "StatusCode": str(spec.get("status", "Unset")),
        "StatusMessage": "",
        "Events": [],
        "Links": [],
    }


def insert_span_specs(
    con: duckdb.DuckDBPyConnection, specs: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Expand ``specs`` (:func:`expand_span`) and insert them into ``otel_traces``."""
    rows = [expand_span(spec, index=i) for i, spec in enumerate(specs)]
    if rows:
        columns = list(rows[0])
        quoted = ", ".join(f'"{c}"' for c in columns)
        con.executemany(
            f"INSERT INTO otel_traces ({quoted}) VALUES ({', '.join('?' for _ in columns)})",
            [[row[c] for c in columns] for row in rows],
        )
    return rows


# --- recurscope serve in a child process ------------------------------------------


class ReceiverProcess:
    """``recurscope serve`` in a child process on free loopback ports (tests, benchmarks).

    Both ports are free ones (``--port 0 --grpc-port 0``; extra ``args`` come
    after, so ``"--no-grpc"`` or ``"--grpc-port", "N"`` override), so any
    number of them run side by side. ::

        with ReceiverProcess(db) as server:
            exporter = OTLPSpanExporter(endpoint=server.endpoint)
            # opentelemetry.exporter.otlp.proto.grpc.trace_exporter.OTLPSpanExporter:
            grpc_exporter = GrpcExporter(endpoint=server.grpc_endpoint, insecure=True)
            ...
            server.stop()          # SIGTERM: finish requests, store the spool; exit code
    """

    def __init__(
        self,
        db_path: str | os.PathLike[str],
        *args: str,
        env: dict[str, str] | None = None,
        startup_timeout: float = 30.0,
        max_open_files: int | None = None,
    ) -> None:
        self.db_path = Path(db_path)
        self.max_open_files = max_open_files
        """The child's soft ``ulimit -n`` (``None``: inherited)."""
        self.args = args
        self.env = env
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen[str] | None = None
        self.endpoint = ""
        """``http://127.0.0.1:PORT/v1/traces``."""
        self.port = 0
        self.grpc_endpoint = ""
        """``127.0.0.1:PORT`` of OTLP/gRPC (empty with ``--no-grpc``)."""
        self.grpc_port = 0
        self.output: list[str] = []
        self._stderr = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 - closed in __exit__
        self._stderr_text = ""

    def start(self) -> ReceiverProcess:
        """Start the server and wait for its "listening" line."""
        command = [
            sys.executable,
            "-m",
            "recurscope.cli",
            "serve",
            "--db",
            str(self.db_path),
            "--host",
            DEFAULT_HOST,
            "--port",
            "0",
            "--grpc-port",
            "0",
            *self.args,
        ]
        environment = dict(os.environ if self.env is None else self.env)
        files = self.max_open_files

        def limit_files() -> None:  # runs in the child, before exec
            import resource

            if files is not None:
                _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))

        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env=environment,
            preexec_fn=limit_files if files is not None else None,
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
                    if " OTLP/gRPC on " in line:
                        self.grpc_endpoint = line.split(" OTLP/gRPC on ", 1)[1].split()[0]
                        self.grpc_port = int(self.grpc_endpoint.rsplit(":", 1)[1])
                    return self
            elif self.process.poll() is not None:
                break
        self.kill()
        raise RuntimeError(f"recurscope serve did not start: {self.stderr}")

    @property
    def stderr(self) -> str:
        """Everything the server wrote to stderr so far (kept after the block ends)."""
        if not self._stderr.closed:
            self._stderr.seek(0)
            self._stderr_text = self._stderr.read()
        return self._stderr_text

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 90.0) -> int:
        """Signal the server (SIGTERM: graceful) and return its exit code."""
        process = self.process
        assert process is not None
        if process.poll() is None:
            process.send_signal(sig)
        try:
            out, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            out, _ = process.communicate()
        self.output.extend(out.splitlines())
        return process.returncode

    def kill(self) -> None:
        """``kill -9``: no cleanup at all."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.communicate()

    def __enter__(self) -> ReceiverProcess:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.kill()
        _ = self.stderr
        self._stderr.close()
