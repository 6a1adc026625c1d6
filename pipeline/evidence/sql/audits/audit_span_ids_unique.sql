-- audit: recurscope span ids are unique within their trace.
-- Returns one row per (trace, span) seen more than once; must return none.
-- A duplicate would count a call, trim or shift twice in every estimate.
select
    TraceId as trace_id,
    SpanId as span_id,
    count(*) as copies
from otel_traces
where SpanName in ('recurscope.call', 'recurscope.trim', 'recurscope.goal.boundary_shift')
group by TraceId, SpanId
having count(*) > 1
