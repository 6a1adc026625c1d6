-- calls: every runtime call that ran generated code, with its attributes typed.
--
-- Grain: one row per `recurscope.call` span, keyed by (trace_id, span_id).
-- The session (`gen_ai.conversation.id`) is the unit of analysis of every
-- estimate; the run is the resource's `service.instance.id`.
--
-- Tolerance: spans converted from native logs may lack attributes the Python
-- instrumentation always sets. `reads_history` and `contextview_shaped` fall
-- back to what the span does carry (see the inline comments) so such spans
-- still count in the right denominators; the raw attribute stays beside the
-- derived column so the two can be told apart.
with

source_spans as (
    select *
    from otel_traces
    where SpanName = 'recurscope.call'
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
        attr_str(SpanAttributes, 'recurscope.call.id') as call_id,
        attr_str(SpanAttributes, 'recurscope.call.parent_id') as parent_call_id,
        attr_int(SpanAttributes, 'recurscope.call.depth') as depth,
        coalesce(
            attr_str(SpanAttributes, 'recurscope.call.role'),
            attr_str(SpanAttributes, 'gen_ai.agent.name')
        ) as role,
        attr_str(SpanAttributes, 'recurscope.call.method') as method,
        attr_int(SpanAttributes, 'recurscope.history.size') as history_size,
        attr_int(SpanAttributes, 'recurscope.history.evicted') as history_evicted,
        attr_str(SpanAttributes, 'recurscope.history.retention') as history_retention,
        attr_bool(SpanAttributes, 'recurscope.history.accessed') as accessed,
        attr_str(SpanAttributes, 'recurscope.history.detection') as detection,
        attr_list(SpanAttributes, 'recurscope.history.ops') as ops,
        attr_int(SpanAttributes, 'recurscope.history.records_read') as records_read,
        attr_list(SpanAttributes, 'recurscope.history.fields_read') as fields_read,
        attr_int(SpanAttributes, 'recurscope.history.static_depth') as static_depth_attr,
        attr_int(SpanAttributes, 'recurscope.history.read_depth') as read_depth_attr,
        attr_float(SpanAttributes, 'recurscope.history.read_age') as read_age_attr,
        attr_int(SpanAttributes, 'recurscope.history.read_tokens') as read_tokens_attr,
        attr_bool(SpanAttributes, 'recurscope.history.contextview_shaped')
            as contextview_shaped_attr,
        attr_bool(SpanAttributes, 'recurscope.history.reported_accessed') as reported_accessed,
        attr_list(SpanAttributes, 'recurscope.history.reported_ops') as reported_ops,
        attr_str(SpanAttributes, 'recurscope.code.fingerprint') as fingerprint,
        attr_str(SpanAttributes, 'recurscope.code.sketch') as sketch_attr,
        attr_str(SpanAttributes, 'recurscope.code.language') as code_language,
        attr_str(SpanAttributes, 'recurscope.code.analysis') as code_analysis,
        attr_str(SpanAttributes, 'recurscope.code.hash') as code_hash,
        attr_int(SpanAttributes, 'recurscope.code.size') as code_size,
        attr_str(SpanAttributes, 'recurscope.code.content') as code_content,
        attr_str(SpanAttributes, 'recurscope.delegation.kind') as delegation_kind,
        attr_str(SpanAttributes, 'recurscope.delegation.caller_role') as caller_role_attr,
        attr_bool(SpanAttributes, 'recurscope.delegation.same_role') as same_role_attr,
        attr_str(SpanAttributes, 'recurscope.call.outcome_status') as outcome_status,
        attr_int(SpanAttributes, 'recurscope.call.attempts') as attempts,
        attr_bool(SpanAttributes, 'gen_ai.conversation.compacted') as compacted_attr,
        attr_str(SpanAttributes, 'recurscope.prompt.version') as prompt_version,
        attr_str(SpanAttributes, 'gen_ai.request.model') as model,
        attr_str(SpanAttributes, 'recurscope.source.format') as source_format,
        attr_int(SpanAttributes, 'recurscope.instrumentation.errors') as instrumentation_errors,
        sampling_probability(ResourceAttributes, SpanAttributes) as sampling_probability,
        sampling_marked(ResourceAttributes, SpanAttributes, TraceState) as sampling_marked,
        ServiceName as service_name,
        attr_str(ResourceAttributes, 'service.version') as service_version,
        StatusCode as status_code,
        "Timestamp" as started_at,
        Duration as duration_ns
    from source_spans
),

final as (
    select
        session_id,                 -- gen_ai.conversation.id; NULL only for a malformed span (audited)
        run_id,                     -- resource service.instance.id: one process of the host
        seed,                       -- resource recurscope.seed (simulated/evaluation runs only)
        trace_id,
        span_id,
        parent_span_id,             -- NULL for a root span
        call_id,                    -- runtime call id, unique within the session
        parent_call_id,             -- the caller's call id, NULL on a top-level call
        depth,                      -- delegation depth as the runtime reported it
        role,                       -- recurscope.call.role, else gen_ai.agent.name
        method,
        history_size,               -- records in the history when the call started
        history_evicted,
        history_retention,
        accessed,                   -- the attribute as sent (NULL when absent)
        -- Did the call read history? Our detector's verdict when present; for
        -- converted native logs without it, the host runtime's own verdict,
        -- then whether the observed view handed out any record.
        coalesce(accessed, reported_accessed, records_read > 0, false) as reads_history,
        detection,                  -- runtime, static, both, none
        coalesce(ops, []) as ops,   -- sorted op names; empty when none recorded
        records_read,
        coalesce(fields_read, []) as fields_read, -- record fields the code reads (static; schema names)
        -- How far back the code read. Values a span cannot honestly carry
        -- (not positive, deeper than the history it had, not finite) are NULL.
        case when static_depth_attr >= 1 then static_depth_attr end
            as static_depth,        -- literal tail bound of its reads, in records
        case
            when read_depth_attr >= 1
                and (history_size is null or read_depth_attr <= history_size)
            then read_depth_attr
        end as read_depth,          -- runtime view: records from the newest to the oldest read
        case when read_age_attr >= 0 and isfinite(read_age_attr) then read_age_attr end
            as read_age_s,          -- seconds from the oldest record read to the call's start
        case when read_tokens_attr >= 0 then read_tokens_attr end
            as read_tokens,         -- tokens from the oldest record read through the newest
        -- Re-implements grep, partition/group or summarize over history: the
        -- attribute when sent, else derived from the ops the same way the
        -- instrumentation does, and never true for a call that did not read.
        coalesce(accessed, reported_accessed, records_read > 0, false)
            and coalesce(
                contextview_shaped_attr,
                lists_overlap(coalesce(ops, []), ['grep', 'partition', 'group', 'summarize'])
            ) as contextview_shaped,
        contextview_shaped_attr,
        reported_accessed,          -- host runtime's own detector (ingested logs)
        reported_ops,
        fingerprint,                -- hash of the normalized history-processing code
        case when valid_sketch(sketch_attr) then sketch_attr end
            as sketch,              -- content-free MinHash sketch of it (NULL if absent or malformed)
        code_language,
        code_analysis,              -- ast, tokens, textual, failed
        code_hash,
        code_size,
        code_content,               -- only with content capture on
        delegation_kind,            -- delegate, agent_for, ... (delegations only)
        caller_role_attr,
        same_role_attr,             -- the runtime's same-role flag (delegations only)
        outcome_status,             -- ok / error in the runtime's terms
        status_code,                -- span status: Unset, Ok, Error
        attempts,
        coalesce(compacted_attr, false) as compacted, -- history was trimmed during the call
        prompt_version,
        model,
        service_name,
        service_version,
        origin,                                -- observed (default), simulated, replayed
        source_format,              -- e.g. recurgent_jsonl for converted native logs
        instrumentation_errors,       -- faults the instrumentation caught on this span
        sampling_probability,       -- head-sampling probability when a marker says
        sampling_marked,            -- any head-sampling marker on the span
        started_at,
        duration_ns,
        span_day(started_at) as day
    from typed
)

select * from final
