-- field_reads: which history record fields generated code reads (design record, open question 1).
--
-- Grain: one row per (history-reading call, field), keyed by (trace_id,
-- span_id, field). `field` is a record field the code reads from history
-- records, found by static analysis (`recurscope.history.fields_read`):
-- schema names only, a key of `outcome_summary` as `outcome_summary.<key>`
-- (beside `outcome_summary` itself). A history-reading call whose fields are
-- unknown (no analysis, or none found) has no row here; the denominator of a
-- read share is history-reading calls *with* fields recorded
-- (`calls.fields_read` non-empty), counted from `calls`.
with

reading_calls as (
    select *
    from calls
    where reads_history and len(fields_read) > 0
),

exploded as (
    -- engine-specific: unnest of a list column (ARRAY JOIN on ClickHouse)
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
        unnest(fields_read) as field
    from reading_calls
),

final as (
    select distinct
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
        field,                                   -- e.g. speaker, outcome_summary.ok
        split_part(field, '.', 1) as record_field, -- the top-level record field it sits in
        field like '%.%' as is_nested            -- a key inside a field (outcome_summary.ok)
    from exploded
    where field is not null and field <> ''
)

select * from final
