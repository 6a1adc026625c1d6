-- session_criteria: each session's numerator and denominator for every criterion.
--
-- Grain: one row per (session, criterion). This is what the session
-- bootstrap resamples: an estimate is sum(numerator) / sum(denominator) over
-- the resampled sessions (a ratio of sums, so a session with many calls
-- weighs more than one with few, and never a mean of per-session ratios).
-- Every session appears for every criterion, with 0 / 0 when it has nothing
-- to count, so resampling sessions is resampling rows of this table.
--
-- Criteria (numerator / denominator):
--   contextview_shaped_share     ContextView-shaped history-reading calls / history-reading calls
--   boilerplate_share            history-reading calls whose shape's near-duplicate cluster is in
--                                >= S other sessions / history-reading calls
--   boilerplate_share_exact      the same with exact fingerprints (pre-registration v1-2; descriptive)
--   same_role_share              same-role delegations / delegations whose same_role is known
--   goal_overflow_share          goal_overflow trims / trims with a goal boundary
--                                (phase pre_boundary or goal_overflow)
--   history_reliance             history-reading calls / calls whose history was non-empty
--   trim_pressure                plannings that trimmed / plannings
--   boundary_shifts_per_session  boundary shifts / sessions (a rate, not a share)
--   same_task_reemit_share       same_task_reemit shifts / shifts after the first need
--   op_mix.<op>                  history-reading calls using <op> / history-reading calls
--
-- Ops come from a fixed vocabulary (the conventions' op names; anything else
-- counts as `other`) so that every session gets the same criteria whatever
-- the other sessions did: the table stays partitionable by session.
with

source_sessions as (
    select * from sessions
),

source_access as (
    select * from history_access where session_id is not null
),

fixed_criteria as (
    select session_id, 'contextview_shaped_share' as criterion,
        contextview_shaped_calls as numerator, history_reading_calls as denominator
    from source_sessions
    union all
    select session_id, 'boilerplate_share',
        clustered_boilerplate_calls, history_reading_calls
    from source_sessions
    union all
    select session_id, 'boilerplate_share_exact',
        boilerplate_calls, history_reading_calls
    from source_sessions
    union all
    select session_id, 'same_role_share',
        same_role_delegations, classified_delegations
    from source_sessions
    union all
    select session_id, 'goal_overflow_share',
        goal_overflow_trims, boundary_trims
    from source_sessions
    union all
    select session_id, 'history_reliance',
        history_reading_calls_with_history, calls_with_history
    from source_sessions
    union all
    select session_id, 'trim_pressure',
        trimmed_plannings, plannings
    from source_sessions
    union all
    select session_id, 'boundary_shifts_per_session',
        boundary_shifts, 1
    from source_sessions
    union all
    select session_id, 'same_task_reemit_share',
        same_task_reemits, later_needs
    from source_sessions
),

-- The op vocabulary of the conventions (docs/semconv.md, recurscope.history.ops).
ops (op) as (
    values
        ('filter'), ('map'), ('slice'), ('count'), ('group'), ('find'), ('sort'), ('peek'),
        ('grep'), ('partition'), ('summarize'), ('iterate'), ('index'), ('len'), ('other')
),

op_counts as (
    select
        source_access.session_id,
        coalesce(ops.op, 'other') as op,
        count(distinct source_access.span_id) as calls_using_op
    from source_access
    left join ops on ops.op = source_access.op
    group by source_access.session_id, coalesce(ops.op, 'other')
),

op_criteria as (
    select
        source_sessions.session_id as session_id,
        'op_mix.' || ops.op as criterion,
        coalesce(op_counts.calls_using_op, 0) as numerator,
        source_sessions.history_reading_calls as denominator
    from source_sessions
    cross join ops
    left join op_counts
        on op_counts.session_id = source_sessions.session_id
        and op_counts.op = ops.op
),

final as (
    select
        session_id,
        criterion,                                  -- see the list above
        cast(numerator as bigint) as numerator,
        cast(denominator as bigint) as denominator
    from fixed_criteria
    union all
    select
        session_id,
        criterion,
        cast(numerator as bigint) as numerator,
        cast(denominator as bigint) as denominator
    from op_criteria
)

select * from final
