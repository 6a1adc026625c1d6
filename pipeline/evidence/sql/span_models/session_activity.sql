-- session_activity: where and when each session ran, at the grain distinct counts need.
--
-- Grain: one row per distinct (session, day, run, seed, service, prompt
-- version, model, origin) over call, trim and boundary-shift spans. A session
-- usually has one or two rows, so distinct days, runs and seeds per session
-- (`sessions`) and over the whole scope (`coverage`) are counted over these
-- few rows instead of every span, and the table stays partitionable by
-- session for incremental refresh.
--
-- It is also the ledger of spans behind the evidence: `spans` and
-- `span_checksum` let a refresh find sessions whose spans changed. Spans
-- without a session get cells too (session_id NULL); `sessions` and
-- `coverage` leave them out.
with

span_rows as (
    select session_id, span_id, day, run_id, seed, service_name, prompt_version, model,
        origin, started_at, sampling_marked, sampling_probability
    from calls
    union all
    select session_id, span_id, day, run_id, seed, service_name, prompt_version, model,
        origin, started_at, sampling_marked, sampling_probability
    from trims
    union all
    select session_id, span_id, day, run_id, seed, service_name, prompt_version, model,
        origin, started_at, sampling_marked, sampling_probability
    from boundary_shifts
),

final as (
    select
        session_id,
        day,                                    -- UTC calendar day of the span starts
        run_id,                                 -- service.instance.id
        seed,                                   -- recurscope.seed (simulated runs), else NULL
        service_name,
        prompt_version,
        model,
        origin,                                 -- observed, simulated, replayed
        count(*) as spans,                      -- call, trim and shift spans in this cell
        sum(span_checksum(span_id)) as span_checksum, -- detects changed spans, not just counts
        min(started_at) as first_span_at,
        max(started_at) as last_span_at,
        sum(case when sampling_marked then 1 else 0 end) as sampling_marked_spans,
        min(sampling_probability) as min_sampling_probability
    from span_rows
    group by session_id, day, run_id, seed, service_name, prompt_version, model, origin
)

select * from final
