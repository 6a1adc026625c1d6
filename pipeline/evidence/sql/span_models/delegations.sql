-- delegations: calls made by another call (delegate(...), Agent.for(...), managed
-- agents), with the caller resolved and same-role decomposition recomputed.
--
-- Grain: one row per delegated call, keyed by (trace_id, span_id).
--
-- A call is a delegation when it names a parent call (`recurscope.call.parent_id`),
-- when its span's parent is a call span, or when it reports a depth above 0 or
-- a delegation kind. The caller is found by call id within the session (the
-- runtime's own link), else by span parentage within the trace (OTel nesting).
-- Callers are looked up within the session only: this keeps the table
-- partitionable by session for incremental refresh; a delegation whose caller
-- is not found is kept and flagged `parent_status = 'missing'`.
--
-- same_role: the target role equals the caller's or any ancestor's. The
-- runtime's attribute wins when present; otherwise (e.g. converted native
-- logs) it is recomputed here by walking the caller chain, and it is NULL
-- only when the chain cannot be walked (caller missing or role unknown).
with recursive

source_calls as (
    select *
    from calls
),

-- One row per span: a re-sent span must not duplicate its children (audited).
calls_by_span as (
    select *
    from (
        select
            *,
            row_number() over (
                partition by trace_id, span_id order by started_at, session_id
            ) as span_rank
        from source_calls
    ) ranked
    where span_rank = 1
),

-- One row per (session, call id): the first span carrying it.
calls_by_call_id as (
    select *
    from (
        select
            *,
            row_number() over (
                partition by session_id, call_id order by started_at, span_id
            ) as call_rank
        from calls_by_span
        where call_id is not null
    ) ranked
    where call_rank = 1
),

-- One join per CTE: with two joins in one SELECT, ClickHouse names the
-- columns of `child.*` `child.<name>`, and later CTEs could not find them.
linked_by_call as (
    select
        child.*,
        by_call.trace_id as by_call_trace_id,
        by_call.span_id as by_call_span_id,
        by_call.call_id as by_call_call_id,
        by_call.role as by_call_role
    from calls_by_span as child
    left join calls_by_call_id as by_call
        on by_call.session_id = child.session_id
        and by_call.call_id = child.parent_call_id
),

linked as (
    select
        child.*,
        coalesce(child.by_call_trace_id, by_span.trace_id) as caller_trace_id,
        coalesce(child.by_call_span_id, by_span.span_id) as caller_span_id,
        coalesce(child.by_call_call_id, by_span.call_id) as caller_call_id,
        coalesce(child.by_call_role, by_span.role) as caller_role_found
    from linked_by_call as child
    left join calls_by_span as by_span
        on child.parent_call_id is null
        and by_span.session_id = child.session_id
        and by_span.trace_id = child.trace_id
        and by_span.span_id = child.parent_span_id
),

delegated as (
    select *
    from linked
    where parent_call_id is not null
        or caller_span_id is not null
        or depth > 0
        or delegation_kind is not null
),

-- Every (delegated call, ancestor) pair, walking caller links upwards. The
-- level cap stops a malformed cycle (a calls b calls a) from looping.
ancestry (trace_id, span_id, ancestor_trace_id, ancestor_span_id, ancestor_role, level) as (
    select
        trace_id,
        span_id,
        caller_trace_id,
        caller_span_id,
        caller_role_found,
        1
    from delegated
    where caller_span_id is not null
    union all
    select
        ancestry.trace_id,
        ancestry.span_id,
        up.caller_trace_id,
        up.caller_span_id,
        up.caller_role_found,
        ancestry.level + 1
    from ancestry
    join linked as up
        on up.trace_id = ancestry.ancestor_trace_id
        and up.span_id = ancestry.ancestor_span_id
    where up.caller_span_id is not null
        and ancestry.level < 64
),

role_matches as (
    select
        delegated.trace_id,
        delegated.span_id,
        count(ancestry.level) as ancestors,
        max(case when ancestry.ancestor_role = delegated.role then 1 else 0 end)
            as matches_ancestor,
        max(case when ancestry.ancestor_role is null then 1 else 0 end) as unknown_ancestor
    from delegated
    left join ancestry
        on ancestry.trace_id = delegated.trace_id
        and ancestry.span_id = delegated.span_id
    group by delegated.trace_id, delegated.span_id
),

classified as (
    select
        delegated.*,
        role_matches.ancestors,
        case
            when delegated.caller_span_id is null or delegated.role is null then null
            when role_matches.matches_ancestor = 1 then true
            when role_matches.unknown_ancestor = 1 then null
            else false
        end as same_role_computed
    from delegated
    join role_matches
        on role_matches.trace_id = delegated.trace_id
        and role_matches.span_id = delegated.span_id
),

final as (
    select
        session_id,
        run_id,
        trace_id,
        span_id,
        call_id,
        role,                                   -- target role (the delegated call's)
        coalesce(caller_role_attr, caller_role_found) as caller_role,
        delegation_kind as kind,                -- delegate, agent_for, managed_agent, ...
        coalesce(parent_call_id, caller_call_id) as parent_call_id,
        caller_trace_id,                        -- the caller's span, when found
        caller_span_id,
        case when caller_span_id is null then 'missing' else 'found' end as parent_status,
        depth,                                  -- as reported
        ancestors,                              -- caller chain length walked here
        coalesce(same_role_attr, same_role_computed) as same_role, -- NULL: undeterminable
        same_role_attr,                         -- the runtime's flag
        same_role_computed,                     -- walked along the caller chain here
        case
            when same_role_attr is not null then 'attribute'
            when same_role_computed is not null then 'computed'
            else 'unknown'
        end as same_role_source,
        prompt_version,
        model,
        service_name,
        service_version,
        started_at,
        day,
        origin                                  -- observed (default), simulated, replayed
    from classified
)

select * from final
