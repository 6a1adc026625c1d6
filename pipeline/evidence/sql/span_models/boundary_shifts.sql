-- boundary_shifts: every need the need tracker recorded, with the goal boundary it moved.
--
-- Grain: one row per `recurscope.goal.boundary_shift` span, keyed by
-- (trace_id, span_id). The first need of a session is a shift too (reason
-- `first_need`, no `boundary_from`). A `same_task_reemit` moves the boundary
-- although the task did not change, which is lossy and measured.
with

source_spans as (
    select *
    from otel_traces
    where SpanName = 'recurscope.goal.boundary_shift'
),

source_calls as (
    select session_id, trace_id, span_id, role
    from calls
),

typed as (
    select
        attr_str(SpanAttributes, 'gen_ai.conversation.id') as session_id,
        attr_str(ResourceAttributes, 'service.instance.id') as run_id,
        attr_str(ResourceAttributes, 'recurscope.seed') as seed,
        coalesce(attr_str(ResourceAttributes, 'recurscope.origin'), 'observed') as origin,
        TraceId as trace_id,
        SpanId as span_id,
        nullif(ParentSpanId, '') as parent_span_id,
        attr_str(SpanAttributes, 'recurscope.goal.reason') as reason,
        attr_int(SpanAttributes, 'recurscope.goal.position') as position,
        attr_int(SpanAttributes, 'recurscope.goal.boundary_from') as boundary_from,
        attr_int(SpanAttributes, 'recurscope.goal.boundary_to') as boundary_to,
        attr_bool(SpanAttributes, 'recurscope.goal.supersedes_earlier') as supersedes_earlier,
        attr_float(SpanAttributes, 'recurscope.goal.similarity') as similarity,
        attr_float(SpanAttributes, 'recurscope.goal.similarity_threshold')
            as similarity_threshold,
        attr_bool(SpanAttributes, 'recurscope.goal.changed_marker') as changed_marker,
        attr_int(SpanAttributes, 'recurscope.goal.need_count') as need_count,
        attr_str(SpanAttributes, 'recurscope.goal.need_hash') as need_hash,
        attr_int(SpanAttributes, 'recurscope.goal.need_size') as need_size,
        attr_str(SpanAttributes, 'recurscope.goal.need_text') as need_text,
        attr_str(SpanAttributes, 'recurscope.prompt.version') as prompt_version,
        attr_str(SpanAttributes, 'gen_ai.request.model') as model,
        attr_str(SpanAttributes, 'recurscope.source.format') as source_format,
        attr_int(SpanAttributes, 'recurscope.instrumentation.errors') as instrumentation_errors,
        sampling_probability(ResourceAttributes, SpanAttributes) as sampling_probability,
        sampling_marked(ResourceAttributes, SpanAttributes, TraceState) as sampling_marked,
        ServiceName as service_name,
        attr_str(ResourceAttributes, 'service.version') as service_version,
        "Timestamp" as started_at,
        Duration as duration_ns
    from source_spans
),

final as (
    select
        typed.session_id,                       -- gen_ai.conversation.id
        typed.run_id,
        typed.seed,                             -- resource recurscope.seed, if any
        typed.trace_id,
        typed.span_id,
        typed.parent_span_id,
        enclosing.span_id as call_span_id,      -- the call the need was recorded in, if any
        enclosing.role as role,
        typed.reason,                           -- first_need, new_goal, same_task_reemit, ...
        typed.reason = 'same_task_reemit' as same_task_reemit,
        typed.position,                         -- 1-based position of the need's message
        typed.boundary_from,                    -- previous 0-based boundary; NULL for the first
        typed.boundary_to,                      -- new 0-based boundary
        typed.supersedes_earlier,
        typed.similarity,                       -- 0..1 to the previous need
        typed.similarity_threshold,
        typed.changed_marker,                   -- "Goal changed" marker raised
        typed.need_count,
        typed.need_hash,
        typed.need_size,
        typed.need_text,                        -- NULL unless content capture was on
        typed.prompt_version,
        typed.model,
        typed.service_name,
        typed.service_version,
        typed.origin,                          -- observed (default), simulated, replayed
        typed.source_format,
        typed.instrumentation_errors,           -- faults the instrumentation caught on this span
        typed.sampling_probability,
        typed.sampling_marked,
        typed.started_at,
        typed.duration_ns,
        span_day(typed.started_at) as day
    from typed
    left join source_calls as enclosing
        on enclosing.session_id = typed.session_id
        and enclosing.trace_id = typed.trace_id
        and enclosing.span_id = typed.parent_span_id
)

select * from final
