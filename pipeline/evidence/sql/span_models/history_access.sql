-- history_access: which operations history-reading calls performed over the history.
--
-- Grain: one row per (history-reading call, op), keyed by (trace_id, span_id,
-- op). A call that read history without any recorded op has no row here; it
-- still counts in the op-mix denominator, which is history-reading calls
-- (from `calls`). The op class separates simple access (peek, slice, count,
-- map, ...: reliance on history) from the shapes a ContextView would replace
-- (grep, partition, group, summarize).
with

history_reading_calls as (
    select *
    from calls
    where reads_history
),

exploded as (
    -- engine-specific: unnest of a list column (ARRAY JOIN on ClickHouse)
    select
        session_id,
        trace_id,
        span_id,
        call_id,
        role,
        detection,
        fingerprint,
        prompt_version,
        model,
        service_name,
        started_at,
        day,
        origin,
        unnest(ops) as op
    from history_reading_calls
),

final as (
    select distinct
        session_id,
        trace_id,
        span_id,
        call_id,
        role,
        op,                                    -- filter, map, slice, grep, ...
        case
            when op in ('grep', 'partition', 'group', 'summarize') then 'contextview'
            else 'simple'
        end as op_class,                       -- contextview-shaped or simple access
        detection,                             -- runtime, static, both
        fingerprint,
        prompt_version,
        model,
        service_name,
        started_at,
        day,
        origin                                 -- observed (default), simulated, replayed
    from exploded
    where op is not null and op <> ''
)

select * from final
