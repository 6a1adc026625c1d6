-- audit: the evidence covers every recurscope span in otel_traces.
-- Returns one row when span and evidence row counts differ (a refresh is
-- due, or rows went missing); must return none right after a refresh.
with

spans as (
    select count(*) as spans
    from otel_traces
    where SpanName in ('recurscope.call', 'recurscope.trim', 'recurscope.goal.boundary_shift')
),

evidence_rows as (
    select
        (select count(*) from calls)
        + (select count(*) from trims)
        + (select count(*) from boundary_shifts) as evidence_rows
)

select spans.spans, evidence_rows.evidence_rows
from spans
cross join evidence_rows
where spans.spans <> evidence_rows.evidence_rows
