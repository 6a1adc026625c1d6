-- audit: the session table agrees with the rows it summarizes.
-- Returns sessions whose call/trim/shift counts differ from the row tables
-- (or rows whose session is missing from `sessions`); must return none.
-- Catches an incremental refresh that replaced rows but not their session.
with

row_counts as (
    select session_id, count(*) as calls, 0 as plannings, 0 as boundary_shifts
    from calls where session_id is not null group by session_id
    union all
    select session_id, 0, count(*), 0
    from trims where session_id is not null group by session_id
    union all
    select session_id, 0, 0, count(*)
    from boundary_shifts where session_id is not null group by session_id
),

per_session as (
    select
        session_id,
        sum(calls) as calls,
        sum(plannings) as plannings,
        sum(boundary_shifts) as boundary_shifts
    from row_counts
    group by session_id
)

select
    coalesce(r.session_id, s.session_id) as session_id,
    r.calls as row_calls,
    s.calls as session_calls,
    r.plannings as row_plannings,
    s.plannings as session_plannings,
    r.boundary_shifts as row_boundary_shifts,
    s.boundary_shifts as session_boundary_shifts
from per_session as r
full outer join sessions as s on s.session_id = r.session_id
where r.session_id is null
    or s.session_id is null
    or r.calls <> s.calls
    or r.plannings <> s.plannings
    or r.boundary_shifts <> s.boundary_shifts
