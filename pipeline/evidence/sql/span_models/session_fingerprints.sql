-- session_fingerprints: history-processing code shapes used in each session.
--
-- Grain: one row per (session, `recurscope.code.fingerprint`) over
-- history-reading calls. It is the session-partitioned half of
-- `code_clusters`: recurrence across sessions ("in >= S other sessions") is
-- a count of these rows per fingerprint, so a refresh that replaces a few
-- sessions' rows can recompute just the fingerprints they touch.
with

source_calls as (
    select *
    from calls
    where reads_history and fingerprint is not null and session_id is not null
),

per_session as (
    select
        session_id,
        fingerprint,
        count(*) as calls,
        sum(case when contextview_shaped then 1 else 0 end) as contextview_shaped_calls,
        min(started_at) as first_seen,
        max(started_at) as last_seen,
        -- A shape's sketch; the smallest when field names made several
        -- (the fingerprint abstracts string keys, the sketch keeps record fields).
        min(sketch) as sketch
    from source_calls
    group by session_id, fingerprint
),

-- The session's example of the shape: its earliest call with captured code,
-- else its earliest call.
examples as (
    select *
    from (
        select
            session_id,
            fingerprint,
            trace_id,
            span_id,
            role,
            code_language,
            code_content,
            ops,
            started_at,
            row_number() over (
                partition by session_id, fingerprint
                order by case when code_content is null then 1 else 0 end, started_at, span_id
            ) as example_rank
        from source_calls
    ) ranked
    where example_rank = 1
),

final as (
    select
        per_session.session_id,
        per_session.fingerprint,
        per_session.calls,                      -- history-reading calls with this shape
        per_session.contextview_shaped_calls,
        per_session.first_seen,
        per_session.last_seen,
        per_session.sketch,                     -- content-free MinHash sketch (near-duplicate clusters)
        examples.trace_id as example_trace_id,
        examples.span_id as example_span_id,
        examples.role as example_role,
        examples.code_language as example_language,
        examples.code_content as example_code,  -- NULL unless content capture was on
        examples.ops as example_ops,
        examples.started_at as example_at
    from per_session
    join examples
        on examples.session_id = per_session.session_id
        and examples.fingerprint = per_session.fingerprint
)

select * from final
