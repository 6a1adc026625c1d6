-- trims: every planning of the model's context, with all trim attributes typed.
--
-- Grain: one row per `recurscope.trim` span, keyed by (trace_id, span_id).
-- A planning is recorded also when everything fits (phase `fits`), so
-- "plannings that trimmed / plannings" (trim pressure) has a denominator.
-- Sizes are in the trim's unit (`unit`: tokens or bytes).
--
-- The enclosing call (the span's parent, when it is a call span of the same
-- session) gives the trim a role, so role-filtered views can include it.
with

source_spans as (
    select *
    from otel_traces
    where SpanName = 'recurscope.trim'
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
        attr_str(SpanAttributes, 'recurscope.trim.strategy') as strategy,
        attr_str(SpanAttributes, 'recurscope.trim.unit') as unit,
        attr_str(SpanAttributes, 'recurscope.trim.encoding') as encoding,
        attr_int(SpanAttributes, 'recurscope.trim.budget') as budget,
        attr_str(SpanAttributes, 'recurscope.trim.phase') as phase,
        attr_bool(SpanAttributes, 'recurscope.trim.trimmed') as trimmed_attr,
        attr_int(SpanAttributes, 'recurscope.trim.boundary_index') as boundary_index,
        attr_int(SpanAttributes, 'recurscope.trim.orientation_size') as orientation_size,
        attr_int(SpanAttributes, 'recurscope.trim.before.size') as before_size,
        attr_int(SpanAttributes, 'recurscope.trim.before.messages') as before_messages,
        attr_int(SpanAttributes, 'recurscope.trim.before.user_size') as before_user_size,
        attr_int(SpanAttributes, 'recurscope.trim.before.assistant_size')
            as before_assistant_size,
        attr_int(SpanAttributes, 'recurscope.trim.before.tool_size') as before_tool_size,
        attr_int(SpanAttributes, 'recurscope.trim.after.size') as after_size,
        attr_int(SpanAttributes, 'recurscope.trim.after.messages') as after_messages,
        attr_int(SpanAttributes, 'recurscope.trim.after.user_size') as after_user_size,
        attr_int(SpanAttributes, 'recurscope.trim.after.assistant_size')
            as after_assistant_size,
        attr_int(SpanAttributes, 'recurscope.trim.after.tool_size') as after_tool_size,
        attr_int(SpanAttributes, 'recurscope.trim.dropped.pre_boundary_count')
            as dropped_pre_boundary_count,
        attr_int(SpanAttributes, 'recurscope.trim.dropped.pre_boundary_size')
            as dropped_pre_boundary_size,
        attr_int(SpanAttributes, 'recurscope.trim.dropped.post_boundary_count')
            as dropped_post_boundary_count,
        attr_int(SpanAttributes, 'recurscope.trim.dropped.post_boundary_size')
            as dropped_post_boundary_size,
        attr_int(SpanAttributes, 'recurscope.trim.summarized.pre_boundary_count')
            as summarized_pre_boundary_count,
        attr_int(SpanAttributes, 'recurscope.trim.summarized.pre_boundary_size')
            as summarized_pre_boundary_size,
        attr_int(SpanAttributes, 'recurscope.trim.summarized.post_boundary_count')
            as summarized_post_boundary_count,
        attr_int(SpanAttributes, 'recurscope.trim.summarized.post_boundary_size')
            as summarized_post_boundary_size,
        attr_bool(SpanAttributes, 'recurscope.trim.stale_ask_dropped') as stale_ask_dropped,
        attr_int(SpanAttributes, 'recurscope.trim.summary.size') as summary_size,
        attr_bool(SpanAttributes, 'recurscope.trim.summary.superseded') as summary_superseded,
        attr_bool(SpanAttributes, 'recurscope.trim.compaction.used') as compaction_used,
        attr_bool(SpanAttributes, 'recurscope.trim.compaction.failed') as compaction_failed,
        attr_str(SpanAttributes, 'recurscope.trim.compaction.error') as compaction_error,
        attr_bool(SpanAttributes, 'gen_ai.conversation.compacted') as compacted_attr,
        attr_int(SpanAttributes, 'gen_ai.usage.input_tokens') as input_tokens,
        attr_str(SpanAttributes, 'recurscope.prompt.version') as prompt_version,
        attr_str(SpanAttributes, 'gen_ai.request.model') as model,
        attr_str(SpanAttributes, 'recurscope.source.format') as source_format,
        attr_int(SpanAttributes, 'recurscope.instrumentation.errors') as instrumentation_errors,
        sampling_probability(ResourceAttributes, SpanAttributes) as sampling_probability,
        sampling_marked(ResourceAttributes, SpanAttributes, TraceState) as sampling_marked,
        ServiceName as service_name,
        attr_str(ResourceAttributes, 'service.version') as service_version,
        -- recurscope replay: which conversation, and what the plan did to its goals
        attr_str(SpanAttributes, 'recurscope.replay.conversation.id') as replay_conversation_id,
        attr_bool(SpanAttributes, 'recurscope.replay.compaction') as replay_compaction,
        attr_int(SpanAttributes, 'recurscope.replay.turn.index') as replay_turn_index,
        attr_str(SpanAttributes, 'recurscope.replay.goal.switch') as replay_goal_switch,
        attr_bool(SpanAttributes, 'recurscope.replay.goal.first_turn_removed')
            as replay_goal_first_turn_removed,
        attr_int(SpanAttributes, 'recurscope.replay.return.size') as replay_return_size,
        attr_int(SpanAttributes, 'recurscope.replay.return.removed_size')
            as replay_return_removed_size,
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
        enclosing.span_id as call_span_id,      -- the call the planning ran in, if any
        enclosing.role as role,                 -- that call's role
        typed.strategy,                         -- goal_aware, head_tail, drop_oldest, goal_return
        typed.unit,                             -- tokens or bytes
        typed.encoding,
        typed.budget,                           -- 0 or less: no limit
        typed.phase,                            -- fits, pre_boundary, goal_overflow, no_boundary
        -- Removed at least one message. The attribute is required; when a
        -- converted span lacks it, any phase but `fits` means a trim happened.
        coalesce(typed.trimmed_attr, typed.phase is not null and typed.phase <> 'fits')
            as trimmed,
        typed.boundary_index,                   -- 0-based message index of the current goal
        typed.orientation_size,
        typed.before_size,
        typed.before_messages,
        typed.before_user_size,
        typed.before_assistant_size,
        typed.before_tool_size,
        typed.after_size,
        typed.after_messages,
        typed.after_user_size,
        typed.after_assistant_size,
        typed.after_tool_size,
        typed.before_size - typed.after_size as removed_size,
        typed.dropped_pre_boundary_count,
        typed.dropped_pre_boundary_size,
        typed.dropped_post_boundary_count,
        typed.dropped_post_boundary_size,
        typed.summarized_pre_boundary_count,
        typed.summarized_pre_boundary_size,
        typed.summarized_post_boundary_count,
        typed.summarized_post_boundary_size,
        typed.stale_ask_dropped,                -- the superseded first ask was removed
        typed.summary_size,
        typed.summary_superseded,
        coalesce(typed.compaction_used, false) as compaction_used,
        coalesce(typed.compaction_failed, false) as compaction_failed,
        typed.compaction_error,                 -- timeout, error:<Type>, over_budget
        coalesce(typed.compacted_attr, false) as compacted,
        typed.input_tokens,
        typed.prompt_version,
        typed.model,
        typed.service_name,
        typed.service_version,
        typed.origin,                          -- observed (default), simulated, replayed
        typed.source_format,
        typed.instrumentation_errors,           -- faults the instrumentation caught on this span
        typed.sampling_probability,
        typed.sampling_marked,
        typed.replay_conversation_id,           -- replayed spans only (origin replayed)
        typed.replay_compaction,
        typed.replay_turn_index,                -- 0-based user turn of the conversation
        typed.replay_goal_switch,               -- first_need, new_goal, same_task, return
        typed.replay_goal_first_turn_removed,   -- the current goal's first turn or plan removed
        typed.replay_return_size,               -- returns: size of the returned-to goal's turns
        typed.replay_return_removed_size,       -- ... and how much of it the plan removed
        typed.started_at,
        typed.duration_ns,
        span_day(typed.started_at) as day,
        -- 1-based position of this planning among its session's plannings (turn)
        row_number() over (
            partition by typed.session_id order by typed.started_at, typed.span_id
        ) as planning_index
    from typed
    left join source_calls as enclosing
        on enclosing.session_id = typed.session_id
        and enclosing.trace_id = typed.trace_id
        and enclosing.span_id = typed.parent_span_id
)

select * from final
