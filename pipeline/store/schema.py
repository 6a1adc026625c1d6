"""The store's tables and their migrations: one function per schema version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import duckdb

_MAP: Final = "MAP(VARCHAR, VARCHAR)"


_CREATE_V1: Final = (
    """
    CREATE TABLE recurscope_meta (
        key   VARCHAR NOT NULL,  -- 'schema_version', ...
        value VARCHAR NOT NULL
    )
    """,
    "CREATE SEQUENCE ingest_id_seq START 1",
    """
    CREATE TABLE ingest_log (
        IngestId          BIGINT    NOT NULL,  -- one per source per run
        Source            VARCHAR   NOT NULL,  -- absolute path, '<stdin>', or a receiver's name
        Format            VARCHAR   NOT NULL,  -- 'otlp-json', 'otlp-proto', ...
        Status            VARCHAR   NOT NULL,  -- running | ok | failed | unchanged
        SourceSize        BIGINT,              -- size of a regular file when opened
        Bytes             BIGINT    NOT NULL DEFAULT 0,  -- bytes read this run
        Checksum          VARCHAR,             -- sha256 of the source's bytes [0, end of read)
        RecordsRead       BIGINT    NOT NULL DEFAULT 0,  -- = accepted + quarantined + duplicates
        SpansAccepted     BIGINT    NOT NULL DEFAULT 0,
        RowsQuarantined   BIGINT    NOT NULL DEFAULT 0,
        DuplicatesSkipped BIGINT    NOT NULL DEFAULT 0,
        ResumeOffset      BIGINT,              -- byte offset after the last complete line
        ResumeLine        BIGINT,              -- lines before ResumeOffset
        ResumeChecksum    VARCHAR,             -- sha256 of bytes [0, ResumeOffset)
        StartedAt         TIMESTAMP NOT NULL,  -- UTC
        FinishedAt        TIMESTAMP,           -- UTC; NULL while running or after a crash
        Detail            VARCHAR              -- why a run failed or re-read from the start
    )
    """,
    f"""
    CREATE TABLE otel_traces (
        Timestamp          TIMESTAMP_NS NOT NULL,  -- span start, ns since the epoch (UTC)
        TraceId            VARCHAR NOT NULL,       -- 32 lower-case hex digits
        SpanId             VARCHAR NOT NULL,       -- 16 lower-case hex digits
        ParentSpanId       VARCHAR NOT NULL,       -- '' for a root span
        TraceState         VARCHAR NOT NULL,
        SpanName           VARCHAR NOT NULL,
        SpanKind           VARCHAR NOT NULL,       -- 'Internal', 'Server', ... ('' if unknown)
        ServiceName        VARCHAR NOT NULL,       -- resource service.name ('' if absent)
        ResourceAttributes {_MAP} NOT NULL,
        ScopeName          VARCHAR NOT NULL,
        ScopeVersion       VARCHAR NOT NULL,
        SpanAttributes     {_MAP} NOT NULL,
        Duration           BIGINT NOT NULL,        -- end - start in ns, never negative
        StatusCode         VARCHAR NOT NULL,       -- 'Unset', 'Ok', 'Error'
        StatusMessage      VARCHAR NOT NULL,
        Events STRUCT(Timestamp TIMESTAMP_NS, Name VARCHAR, Attributes {_MAP})[] NOT NULL,
        Links  STRUCT(TraceId VARCHAR, SpanId VARCHAR, TraceState VARCHAR,
                      Attributes {_MAP})[] NOT NULL,
        ScopeAttributes    {_MAP} NOT NULL,        -- extension: the exporter drops these
        IngestId           BIGINT NOT NULL         -- bookkeeping: the ingest_log run
    )
    """,
    """
    CREATE TABLE quarantine (
        IngestId      BIGINT    NOT NULL,
        Source        VARCHAR   NOT NULL,
        Line          BIGINT,              -- 1-based line (JSON lines)
        ByteOffset    BIGINT,              -- offset of the record's unit (decompressed)
        SpanIndex     BIGINT,              -- 0-based span index within the unit
        Reason        VARCHAR   NOT NULL,  -- see docs/ingest.md
        Detail        VARCHAR   NOT NULL,
        TraceId       VARCHAR   NOT NULL,  -- when the decoder got that far, else ''
        SpanId        VARCHAR   NOT NULL,
        Excerpt       VARCHAR   NOT NULL,  -- raw input, truncated
        QuarantinedAt TIMESTAMP NOT NULL   -- UTC
    )
    """,
    f"INSERT INTO recurscope_meta VALUES ('schema_version', '{1}')",
)


def _create_v1(con: duckdb.DuckDBPyConnection) -> None:
    for statement in _CREATE_V1:
        con.execute(statement)


Migration = Callable[[duckdb.DuckDBPyConnection], None]


MIGRATIONS: Final[dict[int, Migration]] = {0: _create_v1}
"""``MIGRATIONS[v]`` moves a file from schema ``v`` to ``v + 1`` (0 = a fresh file).

A new schema version adds one function here; each runs in its own
transaction and bumps ``recurscope_meta.schema_version``.
"""
