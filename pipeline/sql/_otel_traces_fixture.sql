-- Contract DDL of the raw span table, for tests and benchmarks only.
--
-- Shaped like the OpenTelemetry Collector ClickHouse exporter's `otel_traces`
-- (one row per span; every attribute value is text: ints as decimal text,
-- bools as true/false, arrays as JSON text). The real store
-- (`pipeline/store.py`) owns the production DDL and may add bookkeeping
-- columns; the evidence SQL reads only the columns below, so this file is the
-- whole contract and can be swapped for the store's DDL.
CREATE TABLE IF NOT EXISTS otel_traces (
    "Timestamp" TIMESTAMP_NS,                       -- span start
    TraceId VARCHAR,                                -- 32 lower-case hex digits
    SpanId VARCHAR,                                 -- 16 lower-case hex digits
    ParentSpanId VARCHAR,                           -- '' for a root span
    TraceState VARCHAR,
    SpanName VARCHAR,
    SpanKind VARCHAR,                               -- 'Internal', 'Server', ...
    ServiceName VARCHAR,
    ResourceAttributes MAP(VARCHAR, VARCHAR),
    ScopeName VARCHAR,
    ScopeVersion VARCHAR,
    SpanAttributes MAP(VARCHAR, VARCHAR),
    Duration BIGINT,                                -- nanoseconds
    StatusCode VARCHAR,                             -- 'Unset', 'Ok', 'Error'
    StatusMessage VARCHAR,
    Events STRUCT("Timestamp" TIMESTAMP_NS, "Name" VARCHAR, "Attributes" MAP(VARCHAR, VARCHAR))[],
    Links STRUCT(TraceId VARCHAR, SpanId VARCHAR, TraceState VARCHAR, "Attributes" MAP(VARCHAR, VARCHAR))[]
);
