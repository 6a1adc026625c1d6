-- code_clusters: history-processing code shapes and how widely they recur.
--
-- Grain: one row per `recurscope.code.fingerprint` seen on a history-reading
-- call. A fingerprint hashes the normalized history-dependent statements
-- (names and literals abstracted), so the same shape written in different
-- sessions gets the same hash. A cluster is boilerplate when it recurs in at
-- least S sessions other than any one session using it, i.e. in >= S + 1
-- sessions; S is the pre-registered `boilerplate.min_other_sessions`, read
-- from `evidence_params`.
--
-- Built from `session_fingerprints`, so a refresh recomputes only the
-- fingerprints whose sessions changed (reading them through a filtered view).
with

source_fingerprints as (
    select * from session_fingerprints
),

params as (
    select cast(value as bigint) as min_other_sessions
    from evidence_params
    where name = 'boilerplate_min_other_sessions'
),

clusters as (
    select
        fingerprint,
        sum(calls) as calls,
        count(*) as sessions,
        sum(contextview_shaped_calls) as contextview_shaped_calls,
        min(first_seen) as first_seen,
        max(last_seen) as last_seen
    from source_fingerprints
    group by fingerprint
),

-- The example shown in reports: the earliest captured code, else the earliest
-- call; ties broken by span id. Found as successive minima (no sort), which
-- keeps refreshing the few clusters that span every session cheap.
example_candidates as (
    select
        fingerprint,
        session_id,
        case when example_code is null then 1 else 0 end as without_code,
        example_at,
        example_span_id
    from source_fingerprints
),

best_capture as (
    select fingerprint, min(without_code) as without_code
    from example_candidates
    group by fingerprint
),

best_time as (
    select c.fingerprint, c.without_code, min(c.example_at) as example_at
    from example_candidates as c
    join best_capture as b
        on b.fingerprint = c.fingerprint and b.without_code = c.without_code
    group by c.fingerprint, c.without_code
),

best_span as (
    select c.fingerprint, c.without_code, c.example_at, min(c.example_span_id) as example_span_id
    from example_candidates as c
    join best_time as b
        on b.fingerprint = c.fingerprint
        and b.without_code = c.without_code
        and b.example_at = c.example_at
    group by c.fingerprint, c.without_code, c.example_at
),

examples as (
    select f.*
    from source_fingerprints as f
    join best_span as b
        on b.fingerprint = f.fingerprint
        and b.example_span_id = f.example_span_id
        and b.example_at = f.example_at
),

final as (
    select
        clusters.fingerprint as fingerprint,
        clusters.calls as calls,                    -- history-reading calls with this shape
        clusters.sessions as sessions,              -- distinct sessions using it
        clusters.sessions - 1 as other_sessions,    -- recurrence beyond any one session
        clusters.sessions - 1 >= params.min_other_sessions as is_boilerplate,
        clusters.contextview_shaped_calls as contextview_shaped_calls,
        clusters.first_seen as first_seen,
        clusters.last_seen as last_seen,
        examples.session_id as example_session_id,
        examples.example_trace_id as example_trace_id,
        examples.example_span_id as example_span_id,
        examples.example_role as example_role,
        examples.example_language as example_language,
        examples.example_code as example_code,      -- NULL unless content capture was on
        examples.example_ops as example_ops,
        examples.example_at as example_at           -- when the example call started
    from clusters
    cross join params
    join examples on examples.fingerprint = clusters.fingerprint
)

select * from final
