"""Ingest benchmark: OTLP JSON lines into the store, against DuckDB alone and the decode floor.

    python bench/ingest_bench.py                      # 200,000 spans
    python bench/ingest_bench.py --spans 20000        # quicker
    python bench/ingest_bench.py --markdown           # a table for docs/ingest.md
    python bench/ingest_bench.py --big                # + peak RSS on a ~2 GB file (needs ~5 GB free)

The input is what the OTel Collector ``file`` exporter and the OTel Python
``FileSpanExporter`` write: one ``ExportTraceServiceRequest`` per line, several
spans per request. One template request is recorded with the real SDK
(resource and scope attributes, ``invoke_agent`` / ``recurscope.call`` /
``recurscope.trim`` / ``chat`` spans with 13-30 attributes each, string and
int arrays, doubles, bools, an event) and encoded by
``opentelemetry.exporter.otlp.json.common`` exactly as ``FileSpanExporter``
does; lines are then made from it by swapping in fresh trace and span ids,
times, sessions and numbers (a ``%`` format string, so generating 2 GB takes
seconds, not the SDK's minutes).

Measured in one run, on the same file:

- **ours**: ``recurscope.pipeline.ingest.files.ingest`` into a fresh DuckDB file
  (everything ``recurscope ingest`` does: checksums, validation,
  quarantine checks, the dedup anti-join, the ingest log);
- **DuckDB only**: the obvious SQL route, written reasonably well: one
  ``INSERT INTO otel_traces SELECT ... FROM read_json(..., format =
  'newline_delimited', columns = {...})`` with an explicit OTLP schema (no
  sampling), ``unnest`` of resourceSpans / scopeSpans / spans, resource and
  scope maps built once per resource / scope, ``map_from_entries`` +
  ``list_transform`` for every attribute map (values as text, arrays as
  JSON), hex ids as given, into a fresh file with the same table. It
  validates nothing and does not deduplicate, so it does strictly less work;
- **decode floor**: ``orjson.loads`` of every line (the fastest JSON decoder
  ingest uses), nothing else;
- **reader only**: ingest's OTLP JSON reader turning the file into validated
  rows (file and prefix hashes included) without the store, to show how the
  time of ``ours`` splits between decoding and storing;
- **bound**: a lower bound on the time of *any* route that parses this file
  and stores its rows in ``otel_traces``: DuckDB's own reader parsing the
  file with the OTLP schema (yyjson, both cores: the fastest JSON parser
  here) plus inserting and committing the finished rows from DuckDB's own
  in-memory vectors (the cheapest hand-off there is) into a fresh store.
  Everything else (value encoding, maps, validation, dedup, hashing,
  bookkeeping) counts as free. ``DuckDB-only / bound`` is therefore the
  highest ours / DuckDB-only ratio any ingest could reach on this machine.

Ratios are spans/s over spans/s: ours / DuckDB-only (target >= 2), ours /
floor (how close ingest gets to parsing alone), and the ceiling
DuckDB-only / bound (what the target asks for is possible only if it is >= 2). Each path runs
``--repeat`` times (best kept); the machine is shared, so figures vary.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

# Room the big mode needs besides the file: the store (about 0.6x the JSON)
# and DuckDB's temporary files.
_BIG_BYTES: Final = 2 * 1000**3
_BIG_HEADROOM: Final = 2.5

# --------------------------------------------------------------------------
# The input file.

# Sentinels put into the template so their spots can be found in the encoded
# text and turned into format fields: ints and a session id.
_INT_SENTINEL: Final = 987_650_000
_SESSION_SENTINEL: Final = "session-SENTINEL"
_ID_FIELD_RE: Final = re.compile(r'"(traceId|spanId|parentSpanId)":"([0-9a-f]+)"')
_TIME_FIELD_RE: Final = re.compile(r'"(startTimeUnixNano|endTimeUnixNano|timeUnixNano)":"([0-9]+)"')
_INT_RE: Final = re.compile(r'"intValue":"(9876500[0-9][0-9])"')


def _record_template(spans_per_request: int) -> dict[str, Any]:
    """One request as the OTel Python JSON file exporter encodes it (``to_dict()``)."""
    from opentelemetry.exporter.otlp.json.common.trace_encoder import encode_spans
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import SpanKind, Status, StatusCode

    # Every number() is replaced by a random int per request (see _INT_RE).
    counter = itertools.cycle(range(_INT_SENTINEL, _INT_SENTINEL + 100))

    def number() -> int:
        return next(counter)

    exporter = InMemorySpanExporter()
    provider = TracerProvider(
        resource=Resource.create(
            {
                "service.name": "recurgent-agent",
                "service.version": "0.9.3",
                "service.namespace": "agents",
                "deployment.environment.name": "bench",
                "host.name": "bench-host-01",
                "host.arch": "amd64",
                "os.type": "linux",
                "os.description": "Linux 6.8.0-45-generic",
                "process.pid": 41237,
                "process.runtime.name": "cpython",
                "process.runtime.version": "3.11.9",
                "process.command_args": ["python", "-m", "agent", "--task", "refactor"],
            }
        )
    )
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer(
        "recurscope.instrumentation", "0.1.0", attributes={"recurscope.schema": "1"}
    )
    session = _SESSION_SENTINEL
    with tracer.start_as_current_span("invoke_agent", kind=SpanKind.SERVER) as root:
        root.set_attributes(
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "planner",
                "gen_ai.conversation.id": session,
                "gen_ai.request.model": "gpt-4.1-mini",
                "recurscope.seed": number(),
                "recurscope.prompt.version": "v7",
                "recurscope.sampling.probability": 1.0,
                "recurscope.history.retention": "sliding-window",
                "recurscope.goal.position": number(),
                "recurscope.goal.similarity": 0.8125,
                "recurscope.goal.reason": "user restated the task",
                "recurscope.goal.supersedes_earlier": False,
                "recurscope.source.format": "otlp",
            }
        )
        for index in range(spans_per_request - 1):
            kind = index % 3
            if kind == 0:
                with tracer.start_as_current_span("recurscope.call") as span:
                    span.set_attributes(
                        {
                            "gen_ai.conversation.id": session,
                            "gen_ai.operation.name": "execute_tool",
                            "recurscope.call.id": f"call-{index}",
                            "recurscope.call.parent_id": "call-root",
                            "recurscope.call.depth": index % 4,
                            "recurscope.call.method": "search_history",
                            "recurscope.call.role": "tool",
                            "recurscope.call.outcome_status": "ok",
                            "recurscope.call.attempts": 1,
                            "recurscope.call.args_size": number(),
                            "recurscope.call.args": '{"query": "failing test", "limit": 20}',
                            "recurscope.history.accessed": True,
                            "recurscope.history.size": number(),
                            "recurscope.history.records_read": number(),
                            "recurscope.history.ops": ["filter", "map", "slice"],
                            "recurscope.history.reported_ops": ["filter"],
                            "recurscope.history.evicted": False,
                            "recurscope.history.detection": "view",
                            "recurscope.history.contextview_shaped": True,
                            "code.function.name": "Agent#search_history",
                            "code.file.path": "lib/agent/tools.rb",
                            "code.line.number": 118,
                        }
                    )
            elif kind == 1:
                with tracer.start_as_current_span("recurscope.trim") as span:
                    span.set_attributes(
                        {
                            "gen_ai.conversation.id": session,
                            "recurscope.trim.strategy": "summarize",
                            "recurscope.trim.phase": "pre_call",
                            "recurscope.trim.unit": "tokens",
                            "recurscope.trim.encoding": "o200k_base",
                            "recurscope.trim.applied": True,
                            "recurscope.trim.trimmed": True,
                            "recurscope.trim.over_budget": False,
                            "recurscope.trim.budget": 128_000,
                            "recurscope.trim.boundary_index": number(),
                            "recurscope.trim.orientation_size": number(),
                            "recurscope.trim.before.size": number(),
                            "recurscope.trim.before.messages": number(),
                            "recurscope.trim.before.user_size": number(),
                            "recurscope.trim.before.assistant_size": number(),
                            "recurscope.trim.before.tool_size": number(),
                            "recurscope.trim.after.size": number(),
                            "recurscope.trim.after.messages": number(),
                            "recurscope.trim.after.user_size": number(),
                            "recurscope.trim.after.assistant_size": number(),
                            "recurscope.trim.after.tool_size": number(),
                            "recurscope.trim.dropped.pre_boundary_count": 3,
                            "recurscope.trim.dropped.post_boundary_count": 0,
                            "recurscope.trim.summarized.pre_boundary_count": 5,
                            "recurscope.trim.summary.size": number(),
                            "recurscope.trim.summary.superseded": False,
                            "recurscope.trim.compaction.used": True,
                            "recurscope.trim.compaction.failed": False,
                            "recurscope.trim.stale_ask_dropped": False,
                            "recurscope.trim.kept_roles": ["system", "user", "assistant", "tool"],
                        }
                    )
            else:
                with tracer.start_as_current_span(
                    "chat gpt-4.1-mini", kind=SpanKind.CLIENT
                ) as span:
                    span.set_attributes(
                        {
                            "gen_ai.operation.name": "chat",
                            "gen_ai.system": "openai",
                            "gen_ai.conversation.id": session,
                            "gen_ai.request.model": "gpt-4.1-mini",
                            "gen_ai.response.model": "gpt-4.1-mini-2025-04-14",
                            "gen_ai.request.temperature": 0.2,
                            "gen_ai.request.max_tokens": 4096,
                            "gen_ai.usage.input_tokens": number(),
                            "gen_ai.usage.output_tokens": number(),
                            "gen_ai.response.finish_reasons": ["stop"],
                            "gen_ai.response.id": "chatcmpl-Bx7d2kQ9",
                            "server.address": "api.openai.com",
                            "server.port": 443,
                            "recurscope.call.token_counts": [number(), number(), number()],
                            "recurscope.goal.boundary_shift": False,
                        }
                    )
                    if index % 6 == 2:
                        span.add_event(
                            "gen_ai.choice",
                            {"gen_ai.choice.index": 0, "gen_ai.choice.finish_reason": "stop"},
                        )
                    if index % 12 == 5:
                        span.set_status(Status(StatusCode.ERROR, "rate limited, retried"))
    provider.shutdown()
    request = encode_spans(exporter.get_finished_spans())
    data: dict[str, Any] = request.to_dict()
    return data


@dataclass(frozen=True)
class Template:
    """An encoded request with ``%s`` fields for its ids, times, numbers and session.

    ``fields`` says what goes in each: ``("trace", 0)``, ``("span", k)`` (the
    k-th distinct span id of the template, so parent references stay
    consistent), ``("time", delta_ns)`` (relative to the earliest time),
    ``("int", 0)`` and ``("session", 0)``.
    """

    text: str
    fields: tuple[tuple[str, int], ...]
    spans: int
    span_ids: int


def make_template(spans_per_request: int) -> Template:
    """Record and encode one request, then cut it into a ``%`` format string."""
    encoded = json.dumps(_record_template(spans_per_request), separators=(",", ":"))
    spans = encoded.count('"startTimeUnixNano"')
    times = [int(m.group(2)) for m in _TIME_FIELD_RE.finditer(encoded)]
    base = min(times)
    span_index: dict[str, int] = {}
    marks: list[tuple[int, int, str, tuple[str, int]]] = []
    for match in _ID_FIELD_RE.finditer(encoded):
        key, value = match.group(1), match.group(2)
        if key == "traceId":
            what: tuple[str, int] = ("trace", 0)
        else:
            what = ("span", span_index.setdefault(value, len(span_index)))
        marks.append((match.start(2), match.end(2), key, what))
    for match in _TIME_FIELD_RE.finditer(encoded):
        marks.append((match.start(2), match.end(2), "time", ("time", int(match.group(2)) - base)))
    for match in _INT_RE.finditer(encoded):
        marks.append((match.start(1), match.end(1), "int", ("int", 0)))
    start = 0
    while (found := encoded.find(_SESSION_SENTINEL, start)) >= 0:
        marks.append((found, found + len(_SESSION_SENTINEL), "session", ("session", 0)))
        start = found + 1
    marks.sort()
    parts: list[str] = []
    fields: list[tuple[str, int]] = []
    position = 0
    for begin, end, _, what in marks:
        parts.append(encoded[position:begin].replace("%", "%%"))
        parts.append("%s")
        fields.append(what)
        position = end
    parts.append(encoded[position:].replace("%", "%%"))
    return Template("".join(parts), tuple(fields), spans, len(span_index))


def generate_lines(
    template: Template, spans: int, *, seed: int = 0, start_ns: int = 1_750_000_000 * 10**9
) -> Iterator[bytes]:
    """Newline-terminated requests holding at least ``spans`` distinct spans, deterministically."""
    rng = random.Random(seed)
    bits = rng.getrandbits
    text, fields = template.text, template.fields
    clock = start_ns
    made = 0
    while made < spans:
        trace = f"{bits(128) | 1:032x}"
        ids = [f"{bits(64) | 1:016x}" for _ in range(template.span_ids)]
        session = f"session-{made // 2000:06d}"
        values: list[str] = []
        append = values.append
        for kind, arg in fields:
            if kind == "span":
                append(ids[arg])
            elif kind == "time":
                append(str(clock + arg))
            elif kind == "trace":
                append(trace)
            elif kind == "int":
                append(str(bits(20)))
            else:
                append(session)
        yield (text % tuple(values) + "\n").encode()
        clock += 5_000_000_000
        made += template.spans


def write_file(path: Path, spans: int, *, spans_per_request: int = 16, seed: int = 0) -> int:
    """Write the benchmark input; returns the number of spans written."""
    template = make_template(spans_per_request)
    made = 0
    with path.open("wb", buffering=1 << 20) as handle:
        for line in generate_lines(template, spans, seed=seed):
            handle.write(line)
            made += template.spans
    return made


def write_big_file(path: Path, target_bytes: int, *, spans_per_request: int = 16) -> int:
    """Stream requests to ``path`` until it holds ``target_bytes``; returns spans written."""
    template = make_template(spans_per_request)
    made = size = 0
    with path.open("wb", buffering=1 << 20) as handle:
        for line in generate_lines(template, 1 << 62):
            handle.write(line)
            made += template.spans
            size += len(line)
            if size >= target_bytes:
                break
    return made


# --------------------------------------------------------------------------
# The three paths.


def run_ours(path: Path, db: Path) -> float:
    """Seconds for ``recurscope ingest`` (the Python API) into a fresh store."""
    from recurscope.pipeline import Store, ingest

    with Store.open(db) as store:
        started = time.perf_counter()
        report = ingest([path], store, format="otlp-json", progress=False)
        seconds = time.perf_counter() - started
    if report.failed or report.rows_quarantined:
        raise SystemExit(f"ours: unexpected result {report.summary_line()}")
    return seconds


# The OTLP JSON shapes read_json is told (not left to guess): AnyValue with
# scalar members and arrays of scalars, which covers what the file holds.
_SCALAR: Final = (
    "STRUCT(stringValue VARCHAR, boolValue BOOLEAN, intValue VARCHAR, "
    "doubleValue DOUBLE, bytesValue VARCHAR)"
)
_VALUE: Final = (
    "STRUCT(stringValue VARCHAR, boolValue BOOLEAN, intValue VARCHAR, doubleValue DOUBLE, "
    f'bytesValue VARCHAR, arrayValue STRUCT("values" {_SCALAR}[]))'
)
_KVS: Final = f"STRUCT(key VARCHAR, value {_VALUE})[]"
_SPAN: Final = (
    "STRUCT(traceId VARCHAR, spanId VARCHAR, parentSpanId VARCHAR, traceState VARCHAR, "
    "name VARCHAR, kind INTEGER, startTimeUnixNano UBIGINT, endTimeUnixNano UBIGINT, "
    f"attributes {_KVS}, "
    f"events STRUCT(timeUnixNano UBIGINT, name VARCHAR, attributes {_KVS})[], "
    f"links STRUCT(traceId VARCHAR, spanId VARCHAR, traceState VARCHAR, attributes {_KVS})[], "
    "status STRUCT(code INTEGER, message VARCHAR))"
)
_REQUEST: Final = (
    f"STRUCT(resource STRUCT(attributes {_KVS}), scopeSpans STRUCT(scope STRUCT(name VARCHAR, "
    f"version VARCHAR, attributes {_KVS}), spans {_SPAN}[])[])[]"
)


def _text(v: str) -> str:
    """SQL for an AnyValue's stored text: scalars as text, arrays as compact JSON."""
    element = (
        "coalesce(to_json(x.stringValue)::VARCHAR, x.intValue, x.boolValue::VARCHAR, "
        "x.doubleValue::VARCHAR, to_json(x.bytesValue)::VARCHAR, 'null')"
    )
    return (
        f"coalesce({v}.stringValue, {v}.intValue, {v}.boolValue::VARCHAR, "
        f"{v}.doubleValue::VARCHAR, {v}.bytesValue, "
        f"'[' || array_to_string(list_transform({v}.arrayValue.\"values\", lambda x: {element}), ',')"
        " || ']', '')"
    )


def _map(kvs: str) -> str:
    return (
        f"map_from_entries(coalesce(list_transform({kvs}, "
        f"lambda a: {{'key': a.key, 'value': {_text('a.value')}}}), []))"
    )


DUCKDB_ONLY_SQL: Final = f"""
INSERT INTO otel_traces BY NAME
WITH requests AS (
    SELECT unnest(resourceSpans) AS rs
    FROM read_json(?, format = 'newline_delimited', records = true,
                   columns = {{'resourceSpans': '{_REQUEST}'}},
                   maximum_object_size = 67108864)
), resources AS (
    SELECT {_map("rs.resource.attributes")} AS ResourceAttributes,
           unnest(rs.scopeSpans) AS ss
    FROM requests
), scopes AS (
    SELECT ResourceAttributes,
           coalesce(ResourceAttributes['service.name'], '') AS ServiceName,
           coalesce(ss.scope.name, '') AS ScopeName,
           coalesce(ss.scope.version, '') AS ScopeVersion,
           {_map("ss.scope.attributes")} AS ScopeAttributes,
           unnest(ss.spans) AS s
    FROM resources
)
SELECT
    make_timestamp_ns(s.startTimeUnixNano::BIGINT) AS Timestamp,
    s.traceId AS TraceId,
    s.spanId AS SpanId,
    coalesce(s.parentSpanId, '') AS ParentSpanId,
    coalesce(s.traceState, '') AS TraceState,
    coalesce(s.name, '') AS SpanName,
    coalesce(['Unspecified', 'Internal', 'Server', 'Client', 'Producer', 'Consumer']
             [coalesce(s.kind, 0) + 1], '') AS SpanKind,
    ServiceName,
    ResourceAttributes,
    ScopeName,
    ScopeVersion,
    {_map("s.attributes")} AS SpanAttributes,
    (s.endTimeUnixNano - s.startTimeUnixNano)::BIGINT AS Duration,
    coalesce(['Unset', 'Ok', 'Error'][coalesce(s.status.code, 0) + 1], '') AS StatusCode,
    coalesce(s.status.message, '') AS StatusMessage,
    coalesce(list_transform(s.events, lambda e: {{
        'Timestamp': make_timestamp_ns(e.timeUnixNano::BIGINT),
        'Name': coalesce(e.name, ''),
        'Attributes': {_map("e.attributes")}}}), []) AS Events,
    coalesce(list_transform(s.links, lambda k: {{
        'TraceId': coalesce(k.traceId, ''), 'SpanId': coalesce(k.spanId, ''),
        'TraceState': coalesce(k.traceState, ''),
        'Attributes': {_map("k.attributes")}}}), []) AS Links,
    ScopeAttributes,
    1 AS IngestId
FROM scopes
"""


def run_duckdb_only(path: Path, db: Path) -> float:
    """Seconds for the SQL-only route into a fresh store file with the same table."""
    import duckdb

    from recurscope.pipeline import Store

    with Store.open(db):
        pass  # creates the schema
    con = duckdb.connect(str(db))
    try:
        started = time.perf_counter()
        con.execute("BEGIN TRANSACTION")
        con.execute(DUCKDB_ONLY_SQL, [str(path)])
        con.execute("COMMIT")
        seconds = time.perf_counter() - started
    finally:
        con.close()
    return seconds


def run_decode_only(path: Path) -> float:
    """Seconds for ingest's reader alone: bytes to validated rows, no store.

    The same stream set-up as ingest (file hash, resumable with the prefix
    hash) and the same reader; rows are counted and dropped. What is left of
    ``run_ours`` is the store's share (Arrow, insert, commit).
    """
    import hashlib

    from recurscope.pipeline.decode.formats import ReadContext
    from recurscope.pipeline.decode.formats.otlp_json import read_otlp_json
    from recurscope.pipeline.decode.sources import HashingReader, buffered
    from recurscope.pipeline.records import DEFAULT_LIMITS, SpanRow

    started = time.perf_counter()
    rows = 0
    with path.open("rb", buffering=0) as handle:
        context = ReadContext(
            source=str(path),
            limits=DEFAULT_LIMITS,
            resumable=True,
            prefix_hash=hashlib.sha256(),
        )
        for item in read_otlp_json(buffered(HashingReader(handle)), context):
            if type(item) is SpanRow:
                rows += 1
    seconds = time.perf_counter() - started
    if rows == 0:
        raise SystemExit("decode only: no rows")
    return seconds


def run_floor(path: Path) -> float:
    """Seconds to parse every line with orjson and do nothing else."""
    import orjson

    loads = orjson.loads
    started = time.perf_counter()
    with path.open("rb", buffering=1 << 20) as handle:
        for line in handle:
            loads(line)
    return time.perf_counter() - started


# Parsing alone: every request read with the full OTLP schema and unnested,
# counted, nothing kept.
PARSE_ONLY_SQL: Final = f"""
SELECT count(*) FROM (
    SELECT unnest(resourceSpans) AS rs
    FROM read_json(?, format = 'newline_delimited', records = true,
                   columns = {{'resourceSpans': '{_REQUEST}'}},
                   maximum_object_size = 67108864)
)
"""


def run_bound(path: Path, db: Path) -> tuple[float, float]:
    """(parse seconds, store seconds): the lower bound on any route's time.

    Parse: DuckDB's reader parsing the file with the OTLP schema. Store: the
    finished rows (built beforehand, untimed, by the DuckDB-only query into an
    in-memory table) inserted into a fresh store file and committed, exactly
    as the DuckDB-only route's insert does, but without any of its work.
    """
    import duckdb

    from recurscope.pipeline import Store

    with Store.open(db):
        pass  # creates the schema
    con = duckdb.connect()
    try:
        started = time.perf_counter()
        con.execute(PARSE_ONLY_SQL, [str(path)]).fetchone()
        parse_seconds = time.perf_counter() - started
        select = DUCKDB_ONLY_SQL.split("INSERT INTO otel_traces BY NAME", 1)[1]
        con.execute("CREATE TABLE finished AS " + select, [str(path)])
        con.execute("ATTACH ? AS store", [str(db)])
        started = time.perf_counter()
        con.execute("BEGIN TRANSACTION")
        con.execute("INSERT INTO store.otel_traces BY NAME SELECT * FROM finished")
        con.execute("COMMIT")
        store_seconds = time.perf_counter() - started
    finally:
        con.close()
    return parse_seconds, store_seconds


def stored_spans(db: Path) -> int:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT count(*) FROM otel_traces").fetchone()
    finally:
        con.close()
    assert row is not None
    return int(row[0])


# --------------------------------------------------------------------------
# Measuring.


@dataclass(frozen=True)
class Figures:
    spans: int
    file_bytes: int
    ours_seconds: float
    duckdb_seconds: float
    floor_seconds: float
    decode_seconds: float
    bound_parse_seconds: float
    bound_store_seconds: float

    @property
    def decode_rate(self) -> float:
        return self.spans / self.decode_seconds

    @property
    def ours_rate(self) -> float:
        return self.spans / self.ours_seconds

    @property
    def duckdb_rate(self) -> float:
        return self.spans / self.duckdb_seconds

    @property
    def floor_rate(self) -> float:
        return self.spans / self.floor_seconds

    @property
    def bound_seconds(self) -> float:
        return self.bound_parse_seconds + self.bound_store_seconds

    @property
    def ceiling(self) -> float:
        """DuckDB-only / bound: the highest ours / DuckDB-only ratio any route could reach."""
        return self.duckdb_seconds / self.bound_seconds

    @property
    def ratio_vs_duckdb(self) -> float:
        """ours / DuckDB-only, in spans/s (target >= 2)."""
        return self.ours_rate / self.duckdb_rate

    @property
    def ratio_vs_floor(self) -> float:
        """ours / decode floor, in spans/s (at most 1)."""
        return self.ours_rate / self.floor_rate


def measure_file(path: Path, spans: int, workdir: Path, *, repeat: int = 1) -> Figures:
    """Run the three paths on ``path`` (best of ``repeat`` each), checking both stores."""
    best = {name: float("inf") for name in ("floor", "decode", "duckdb", "ours")}
    bound = (float("inf"), float("inf"))
    for attempt in range(repeat):
        for name in best:
            db = workdir / f"{name}-{attempt}.duckdb"
            if name == "floor":
                seconds = run_floor(path)
            elif name == "decode":
                seconds = run_decode_only(path)
            elif name == "duckdb":
                seconds = run_duckdb_only(path, db)
            else:
                seconds = run_ours(path, db)
            if name in ("duckdb", "ours"):
                stored = stored_spans(db)
                if stored != spans:
                    raise SystemExit(f"{name}: stored {stored} spans, expected {spans}")
                for leftover in (db, db.with_name(db.name + ".wal")):
                    leftover.unlink(missing_ok=True)
            best[name] = min(best[name], seconds)
        db = workdir / f"bound-{attempt}.duckdb"
        parse_seconds, store_seconds = run_bound(path, db)
        if stored_spans(db) != spans:
            raise SystemExit(f"bound: stored {stored_spans(db)} spans, expected {spans}")
        for leftover in (db, db.with_name(db.name + ".wal")):
            leftover.unlink(missing_ok=True)
        if parse_seconds + store_seconds < sum(bound):
            bound = (parse_seconds, store_seconds)
    return Figures(
        spans,
        path.stat().st_size,
        best["ours"],
        best["duckdb"],
        best["floor"],
        best["decode"],
        *bound,
    )


def measure(spans: int, *, spans_per_request: int = 16, repeat: int = 1) -> Figures:
    """Generate a file of ``spans`` spans in a temporary folder and measure it."""
    with tempfile.TemporaryDirectory(prefix="recurscope-ingest-bench-") as folder:
        workdir = Path(folder)
        path = workdir / "spans.jsonl"
        made = write_file(path, spans, spans_per_request=spans_per_request)
        return measure_file(path, made, workdir, repeat=repeat)


# Runs in a child process so its peak RSS is the ingest's alone. The peak is
# VmHWM, which starts afresh at exec; ru_maxrss does not (on Linux it keeps
# the RSS the parent had when it forked, so a big test process would inflate
# it). The report goes to a file: DuckDB may draw its progress bar on stdout
# during a long statement.
_CHILD: Final = """
import json, resource, sys, time
from recurscope.pipeline import Store, ingest
with Store.open(sys.argv[2]) as store:
    started = time.perf_counter()
    report = ingest([sys.argv[1]], store, format="otlp-json", progress=False)
    seconds = time.perf_counter() - started
with open("/proc/self/status") as status:
    peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
# The decoder workers have exited by now: the largest one's peak (they start
# afresh at exec, so ru_maxrss is their own).
workers_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with open(sys.argv[3], "w") as out:
    json.dump({
        "spans": report.spans_accepted, "quarantined": report.rows_quarantined,
        "seconds": seconds, "max_rss_kb": peak_kb, "worker_rss_kb": workers_kb,
    }, out)
"""


@dataclass(frozen=True)
class BigFigures:
    spans: int
    file_bytes: int
    seconds: float
    peak_rss_bytes: int
    store_bytes: int
    folder: str

    @property
    def rate(self) -> float:
        return self.spans / self.seconds


def ingest_in_child(path: Path, db: Path) -> tuple[dict[str, Any], int]:
    """Ingest ``path`` in a child process: (its report, peak RSS in bytes).

    The peak is the child's own (``VmHWM``, which covers DuckDB's threads)
    plus, per decoder worker, the largest worker's peak: an upper bound on
    what the ingest's processes held at once. (The benchmark's own
    ``RUSAGE_CHILDREN`` would be the largest of *all* its children so far,
    inflated by its size at fork; see ``_CHILD``.)
    """
    from recurscope.pipeline.ingest.parallel import default_workers

    out = db.with_name(db.name + ".report.json")
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(db), str(out)],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"ingest child failed ({result.returncode}): {result.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(out.read_text())
    out.unlink()
    if result.stdout.strip():
        report["stdout"] = result.stdout[-500:]
    workers = default_workers() if int(report["worker_rss_kb"]) else 0
    return report, (int(report["max_rss_kb"]) + workers * int(report["worker_rss_kb"])) * 1024


def free_bytes(folder: Path) -> int:
    return shutil.disk_usage(folder).free


# Where the --big file may go when the asked-for folder is short of room: a
# memory-backed file system. The file is read with read(), never mapped, so
# its pages are not in the ingest's RSS and the figure is the same.
_ROOMY_FALLBACKS: Final = (Path("/dev/shm"),)


def big_folder(target_bytes: int, folder: str | None = None) -> Path:
    """The first of ``folder`` (default ``$TMPDIR``) and a tmpfs with room for the --big run.

    Raises SystemExit naming what is free where, when none has room.
    """
    needed = int(target_bytes * _BIG_HEADROOM)
    asked = Path(folder or tempfile.gettempdir())
    candidates = [asked, *(path for path in _ROOMY_FALLBACKS if path.is_dir())]
    free = {path: free_bytes(path) for path in candidates}
    for path in candidates:
        if free[path] >= needed:
            return path
    found = ", ".join(f"{value / 1e9:.1f} GB in {path}" for path, value in free.items())
    raise SystemExit(
        f"--big needs about {needed / 1e9:.1f} GB free (the file, the store and DuckDB's "
        f"temporary files); only {found} is. Free some space or point --tmp at a bigger disk."
    )


def measure_big(target_bytes: int = _BIG_BYTES, *, folder: str | None = None) -> BigFigures:
    """Write a ~``target_bytes`` JSON-lines file, ingest it in a child, report peak RSS.

    The files go in ``folder`` or, when it is short of room, a tmpfs (see
    :func:`big_folder`).
    """
    base = big_folder(target_bytes, folder)
    with tempfile.TemporaryDirectory(prefix="recurscope-ingest-big-", dir=base) as work:
        path = Path(work) / "big.jsonl"
        spans = write_big_file(path, target_bytes)
        size = path.stat().st_size
        db = Path(work) / "big.duckdb"
        report, peak = ingest_in_child(path, db)
        if report["spans"] != spans or report["quarantined"]:
            raise SystemExit(f"big ingest stored {report['spans']} of {spans} spans")
        store_size = db.stat().st_size
    return BigFigures(spans, size, float(report["seconds"]), peak, store_size, str(base))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=200_000, help="spans in the file")
    parser.add_argument("--spans-per-request", type=int, default=16, help="spans per line")
    parser.add_argument("--repeat", type=int, default=3, help="runs per path (best kept)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--big", action="store_true", help="also ingest a ~2 GB file (peak RSS)")
    parser.add_argument(
        "--big-bytes", type=int, default=_BIG_BYTES, help="size of the --big file (bytes)"
    )
    parser.add_argument("--tmp", default=None, help="folder for the --big file (default: $TMPDIR)")
    options = parser.parse_args()

    figures = measure(
        options.spans, spans_per_request=options.spans_per_request, repeat=options.repeat
    )
    mb = figures.file_bytes / 1e6
    if options.markdown:
        print(f"{figures.spans:,} spans, {mb:,.0f} MB of OTLP JSON lines\n")
        print("| path | spans/s | seconds | ours ÷ this path (spans/s) |")
        print("| --- | --- | --- | --- |")
        print(
            f"| ours (`recurscope ingest`) | {figures.ours_rate:,.0f} | "
            f"{figures.ours_seconds:.2f} | 1.00 |"
        )
        print(
            f"| DuckDB only (`read_json` + `unnest`) | {figures.duckdb_rate:,.0f} | "
            f"{figures.duckdb_seconds:.2f} | {figures.ratio_vs_duckdb:.2f} |"
        )
        print(
            f"| decode floor (`orjson.loads` per line) | {figures.floor_rate:,.0f} | "
            f"{figures.floor_seconds:.2f} | {figures.ratio_vs_floor:.2f} |"
        )
        print(
            f"| ours, reader only (rows, no store) | {figures.decode_rate:,.0f} | "
            f"{figures.decode_seconds:.2f} | {figures.ours_rate / figures.decode_rate:.2f} |"
        )
        print(
            f"| bound: DuckDB parse ({figures.bound_parse_seconds:.2f} s) + storing finished "
            f"rows ({figures.bound_store_seconds:.2f} s) | {figures.spans / figures.bound_seconds:,.0f} | "
            f"{figures.bound_seconds:.2f} | {figures.bound_seconds / figures.ours_seconds:.2f} |"
        )
        print(
            f"\nceiling = DuckDB only ÷ bound = {figures.ceiling:.2f} (the highest "
            "ours ÷ DuckDB-only any route could reach here)"
        )
    else:
        print(
            f"{figures.spans:,} spans in {mb:,.0f} MB of OTLP JSON lines "
            f"({options.spans_per_request} spans per request)"
        )
        print(
            f"  ours (recurscope ingest):        {figures.ours_rate:>10,.0f} spans/s  "
            f"({figures.ours_seconds:.2f} s)"
        )
        print(
            f"  DuckDB only (read_json+unnest):  {figures.duckdb_rate:>10,.0f} spans/s  "
            f"({figures.duckdb_seconds:.2f} s)"
        )
        print(
            f"  decode floor (orjson.loads):     {figures.floor_rate:>10,.0f} spans/s  "
            f"({figures.floor_seconds:.2f} s)"
        )
        print(
            f"  ours, reader only (no store):    {figures.decode_rate:>10,.0f} spans/s  "
            f"({figures.decode_seconds:.2f} s)"
        )
        print(
            f"  bound (parse + store only):      {figures.spans / figures.bound_seconds:>10,.0f} "
            f"spans/s  ({figures.bound_parse_seconds:.2f} s parse + "
            f"{figures.bound_store_seconds:.2f} s store)"
        )
        print(f"  ours / DuckDB only: {figures.ratio_vs_duckdb:.2f}x (target >= 2)")
        print(
            f"  ceiling, DuckDB only / bound: {figures.ceiling:.2f}x "
            "(the best ratio any route could reach)"
        )
        print(f"  ours / decode floor: {figures.ratio_vs_floor:.2f}x")
    if options.big:
        big = measure_big(options.big_bytes, folder=options.tmp)
        print(
            f"big file: {big.spans:,} spans, {big.file_bytes / 1e9:.2f} GB -> "
            f"{big.rate:,.0f} spans/s ({big.seconds:.0f} s), peak RSS "
            f"{big.peak_rss_bytes / 1e9:.2f} GB (target < 1.5 GB), store "
            f"{big.store_bytes / 1e9:.2f} GB, in {big.folder}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
