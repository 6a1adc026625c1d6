-- audit: no span ends before it starts.
-- Returns the offending spans; must return none.
select
    TraceId as trace_id,
    SpanId as span_id,
    SpanName as span_name,
    Duration as duration_ns
from otel_traces
where Duration < 0
