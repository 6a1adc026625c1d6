-- coverage: what the evidence covers, checked against the pre-registered window.
--
-- Grain: one row for the whole scope (all sessions, or a filtered view).
-- Runs, days and seeds are counted over `session_activity` (distinct per
-- span cell), not summed over sessions, since a session can span runs and
-- days. Spans without a session are not covered (they form no session).
with

activity as (
    select * from session_activity where session_id is not null
),

final as (
    select
        count(distinct session_id) as sessions,
        count(distinct day) as days,                        -- distinct calendar days (UTC)
        count(distinct run_id) as runs,                     -- distinct service.instance.id
        count(distinct seed) as seeds,                      -- distinct recurscope.seed; 0 if none
        count(distinct service_name) as services,
        coalesce(sum(spans), 0) as spans,                   -- call, trim and shift spans
        coalesce(sum(case when origin <> 'observed' then spans else 0 end), 0)
            as non_observed_spans,                          -- simulated or replayed spans
        coalesce(sum(case when origin = 'simulated' then spans else 0 end), 0)
            as simulated_spans,
        coalesce(sum(case when origin = 'replayed' then spans else 0 end), 0)
            as replayed_spans,
        min(first_span_at) as first_span_at,
        max(last_span_at) as last_span_at,
        coalesce(sum(sampling_marked_spans), 0) as sampling_marked_spans,
        min(min_sampling_probability) as min_sampling_probability
    from activity
)

select * from final
