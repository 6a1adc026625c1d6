-- audit: every delegation's caller exists in `calls`, or the delegation is flagged.
-- Returns delegations whose parent_status disagrees with what `calls` holds;
-- must return none. A delegation flagged 'missing' is allowed (and counted
-- in sessions.orphan_delegations); one marked 'found' must point at a call.
with

callers as (
    select trace_id, span_id, session_id from calls
),

checked as (
    select
        d.session_id,
        d.trace_id,
        d.span_id,
        d.parent_status,
        d.caller_span_id,
        c.span_id as found_span_id
    from delegations as d
    left join callers as c
        on c.trace_id = d.caller_trace_id
        and c.span_id = d.caller_span_id
        and c.session_id = d.session_id
)

select *
from checked
where parent_status not in ('found', 'missing')
    or parent_status is null
    or (parent_status = 'found' and found_span_id is null)
    or (parent_status = 'missing' and caller_span_id is not null)
