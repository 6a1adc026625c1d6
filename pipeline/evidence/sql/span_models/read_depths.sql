-- read_depths: how far back the records that code reads lie (design record, open question 2).
--
-- Grain: one row per history-reading call that had a non-empty history,
-- keyed by (trace_id, span_id). Depth is in records from the newest (1: only
-- the newest record), from the runtime view (`recurscope.history.read_depth`)
-- when it observed a read, else the code's literal tail bound
-- (`static_depth`, capped at the history's size: `last(5)` of 3 records reads
-- 3); NULL when neither says (code read the history unbounded and no view
-- watched it). Age (seconds) and tokens come only from the view. A call hit
-- evicted history when it read back to the oldest record still held while
-- the retention policy had already evicted older ones in the session: it may
-- have wanted what was gone.
with

reading_calls as (
    select *
    from calls
    where reads_history and history_size > 0
),

session_evictions as (
    -- records evicted in the session before each call (evicted is per call: since the previous)
    select
        trace_id,
        span_id,
        coalesce(sum(coalesce(history_evicted, 0)) over (
            partition by session_id
            order by started_at, span_id
            rows between unbounded preceding and 1 preceding
        ), 0) as evicted_before
    from calls
),

depths as (
    select
        c.*,
        e.evicted_before,
        -- least() skips NULLs on some engines: cap the static bound explicitly.
        coalesce(
            c.read_depth,
            case when c.static_depth is not null then least(c.static_depth, c.history_size) end
        ) as depth_records
    from reading_calls as c
    join session_evictions as e on e.trace_id = c.trace_id and e.span_id = c.span_id
),

final as (
    select
        session_id,
        trace_id,
        span_id,
        call_id,
        role,
        prompt_version,
        model,
        service_name,
        code_language,
        source_format,
        origin,
        started_at,
        day,
        history_size,                           -- records held when the call started
        history_retention,
        evicted_before,                         -- records evicted earlier in the session
        static_depth,                           -- literal tail bound, when the code has one
        read_depth as observed_depth,           -- runtime view, when it saw a read
        depth_records,                          -- records from the newest to the oldest read
        case
            when read_depth is not null then 'runtime'
            when static_depth is not null then 'static'
        end as depth_source,
        read_age_s as depth_seconds,
        read_tokens as depth_tokens,
        depth_records = history_size as reached_oldest, -- read back to the oldest record held
        depth_records = history_size and evicted_before > 0 as hit_eviction,
        -- Both known: did the run stay within the code's literal bound?
        case
            when read_depth is not null and static_depth is not null
            then read_depth <= static_depth
        end as within_static_bound
    from depths
)

select * from final
