-- code_clusters_merge: refreshed code_clusters rows for the fingerprints a refresh touched,
-- merged from each old cluster row and the refreshed sessions' rows before and after.
--
-- Grain: one row per touched fingerprint (`touched_fingerprints`). Used by the
-- incremental refresh instead of re-aggregating every session of a cluster:
-- the few clusters that span every session would otherwise be re-read on
-- every refresh. Sums and counts merge exactly (old - scope before + scope
-- after). A minimum, maximum or example merges exactly unless it came from a
-- refreshed session and the new rows do not reach it; then
-- `needs_recompute` is set and the refresh recomputes that cluster with
-- code_clusters.sql. Tested to equal a full rebuild.
--
-- Inputs: code_clusters (the old rows), scope_fingerprints_before (the
-- refreshed sessions' session_fingerprints rows before the refresh),
-- scoped_session_fingerprints (their rows after), evidence_params.
with

touched as (
    select fingerprint from touched_fingerprints
),

params as (
    select cast(value as bigint) as min_other_sessions
    from evidence_params
    where name = 'boilerplate_min_other_sessions'
),

old_clusters as (
    select
        code_clusters.*,
        case when example_code is null then 1 else 0 end as without_code
    from code_clusters
    where fingerprint in (select fingerprint from touched)
),

before_totals as (
    select
        fingerprint,
        sum(calls) as calls,
        count(*) as sessions,
        sum(contextview_shaped_calls) as contextview_shaped_calls,
        min(first_seen) as first_seen,
        max(last_seen) as last_seen
    from scope_fingerprints_before
    group by fingerprint
),

after_rows as (
    select
        *,
        case when example_code is null then 1 else 0 end as without_code
    from scoped_session_fingerprints
),

after_totals as (
    select
        fingerprint,
        sum(calls) as calls,
        count(*) as sessions,
        sum(contextview_shaped_calls) as contextview_shaped_calls,
        min(first_seen) as first_seen,
        max(last_seen) as last_seen
    from after_rows
    group by fingerprint
),

-- The best example among the refreshed sessions' rows (successive minima).
after_best_capture as (
    select fingerprint, min(without_code) as without_code
    from after_rows
    group by fingerprint
),

after_best_time as (
    select r.fingerprint, r.without_code, min(r.example_at) as example_at
    from after_rows as r
    join after_best_capture as b
        on b.fingerprint = r.fingerprint and b.without_code = r.without_code
    group by r.fingerprint, r.without_code
),

after_best_span as (
    select r.fingerprint, r.without_code, r.example_at, min(r.example_span_id) as example_span_id
    from after_rows as r
    join after_best_time as b
        on b.fingerprint = r.fingerprint
        and b.without_code = r.without_code
        and b.example_at = r.example_at
    group by r.fingerprint, r.without_code, r.example_at
),

after_best as (
    select r.*
    from after_rows as r
    join after_best_span as b
        on b.fingerprint = r.fingerprint
        and b.example_span_id = r.example_span_id
        and b.example_at = r.example_at
),

combined as (
    select
        touched.fingerprint,
        o.fingerprint is not null as existed,
        coalesce(o.calls, 0) - coalesce(b.calls, 0) + coalesce(a.calls, 0) as calls,
        coalesce(o.sessions, 0) - coalesce(b.sessions, 0) + coalesce(a.sessions, 0) as sessions,
        coalesce(o.contextview_shaped_calls, 0) - coalesce(b.contextview_shaped_calls, 0)
            + coalesce(a.contextview_shaped_calls, 0) as contextview_shaped_calls,
        o.first_seen as old_first,
        o.last_seen as old_last,
        b.first_seen as before_first,
        b.last_seen as before_last,
        a.first_seen as after_first,
        a.last_seen as after_last,
        -- Did the old example come from a refreshed session?
        o.example_session_id in (select session_id from refresh_scope) as old_example_refreshed,
        -- The refreshed sessions' best example against the old one: -1 ahead,
        -- 0 the same call, 1 behind; NULL when either is missing.
        case
            when x.fingerprint is null or o.fingerprint is null then null
            when x.without_code <> o.without_code
                then case when x.without_code < o.without_code then -1 else 1 end
            when x.example_at <> o.example_at
                then case when x.example_at < o.example_at then -1 else 1 end
            when x.example_span_id <> o.example_span_id
                then case when x.example_span_id < o.example_span_id then -1 else 1 end
            else 0
        end as new_vs_old_example,
        o.example_session_id as old_example_session_id,
        o.example_trace_id as old_example_trace_id,
        o.example_span_id as old_example_span_id,
        o.example_role as old_example_role,
        o.example_language as old_example_language,
        o.example_code as old_example_code,
        o.example_ops as old_example_ops,
        o.example_at as old_example_at,
        x.session_id as new_example_session_id,
        x.example_trace_id as new_example_trace_id,
        x.example_span_id as new_example_span_id,
        x.example_role as new_example_role,
        x.example_language as new_example_language,
        x.example_code as new_example_code,
        x.example_ops as new_example_ops,
        x.example_at as new_example_at
    from touched
    left join old_clusters as o on o.fingerprint = touched.fingerprint
    left join before_totals as b on b.fingerprint = touched.fingerprint
    left join after_totals as a on a.fingerprint = touched.fingerprint
    left join after_best as x on x.fingerprint = touched.fingerprint
),

resolved as (
    select
        *,
        -- An extreme merges exactly when the old one did not come from a
        -- refreshed session, or the refreshed sessions still reach it.
        case
            when not existed then after_first
            when before_first is null or before_first > old_first
                then least(old_first, after_first)
            when after_first <= old_first then after_first
        end as first_seen,
        case
            when not existed then after_last
            when before_last is null or before_last < old_last
                then greatest(old_last, after_last)
            when after_last >= old_last then after_last
        end as last_seen,
        (not existed) or new_vs_old_example = -1 as take_new_example,
        -- The old example came from a refreshed session whose new rows no
        -- longer reach it: only a recompute can say which call is first now.
        existed
            and coalesce(old_example_refreshed, false)
            and coalesce(new_vs_old_example, 1) = 1 as example_unknown
    from combined
),

final as (
    select
        resolved.fingerprint,
        resolved.calls,
        resolved.sessions,
        resolved.sessions - 1 as other_sessions,
        resolved.sessions - 1 >= params.min_other_sessions as is_boilerplate,
        resolved.contextview_shaped_calls,
        resolved.first_seen,
        resolved.last_seen,
        case when take_new_example then new_example_session_id else old_example_session_id end
            as example_session_id,
        case when take_new_example then new_example_trace_id else old_example_trace_id end
            as example_trace_id,
        case when take_new_example then new_example_span_id else old_example_span_id end
            as example_span_id,
        case when take_new_example then new_example_role else old_example_role end
            as example_role,
        case when take_new_example then new_example_language else old_example_language end
            as example_language,
        case when take_new_example then new_example_code else old_example_code end
            as example_code,
        case when take_new_example then new_example_ops else old_example_ops end
            as example_ops,
        case when take_new_example then new_example_at else old_example_at end
            as example_at,
        -- The refresh recomputes these from code_clusters.sql; rows with no
        -- session left are deleted.
        (resolved.sessions > 0
            and (resolved.first_seen is null or resolved.last_seen is null
                 or resolved.example_unknown)) as needs_recompute
    from resolved
    cross join params
)

select * from final
