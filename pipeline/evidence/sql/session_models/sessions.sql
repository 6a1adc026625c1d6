-- sessions: per-session counts and sums every criterion is a ratio of.
--
-- Grain: one row per session (`gen_ai.conversation.id`) that has at least one
-- call, trim or boundary shift. Every estimate in the report is
-- sum(numerator) / sum(denominator) over these rows, and the bootstrap
-- resamples these rows: the session is the unit of analysis.
--
-- Partitioned by session like the span tables, with two cross-session
-- columns: `boilerplate_calls` depends on other sessions through
-- `code_clusters` and `clustered_boilerplate_calls` through `shape_clusters`,
-- so a refresh also recomputes the sessions using a fingerprint whose (or
-- whose cluster's) boilerplate status flipped.
with

source_calls as (
    select * from calls where session_id is not null
),

source_delegations as (
    select * from delegations where session_id is not null
),

source_trims as (
    select * from trims where session_id is not null
),

source_shifts as (
    select * from boundary_shifts where session_id is not null
),

source_fingerprints as (
    select * from session_fingerprints where session_id is not null
),

boilerplate_fingerprints as (
    select fingerprint from code_clusters where is_boilerplate
),

-- Shapes whose near-duplicate cluster is boilerplate (a shape the registry
-- does not hold is its own cluster, named by its fingerprint).
clustered_boilerplate_fingerprints as (
    select distinct source_fingerprints.fingerprint as fingerprint
    from source_fingerprints
    left join shape_cluster_members as registry
        on registry.fingerprint = source_fingerprints.fingerprint
    join shape_clusters
        on shape_clusters.cluster_id
            = coalesce(registry.cluster_id, source_fingerprints.fingerprint)
    where shape_clusters.is_boilerplate
),

call_counts as (
    select
        session_id,
        count(*) as calls,
        sum(case when history_size > 0 then 1 else 0 end) as calls_with_history,
        sum(case when reads_history then 1 else 0 end) as history_reading_calls,
        sum(case when reads_history and history_size > 0 then 1 else 0 end)
            as history_reading_calls_with_history,
        sum(case when contextview_shaped then 1 else 0 end) as contextview_shaped_calls,
        sum(case when reads_history and fingerprint is not null then 1 else 0 end)
            as fingerprinted_calls,
        sum(case when status_code = 'Error' or outcome_status = 'error' then 1 else 0 end)
            as error_calls,
        sum(case when compacted then 1 else 0 end) as compacted_calls,
        sum(case when code_content is not null then 1 else 0 end) as calls_with_code
    from source_calls
    group by session_id
),

boilerplate_counts as (
    select
        source_fingerprints.session_id,
        sum(source_fingerprints.calls) as boilerplate_calls
    from source_fingerprints
    join boilerplate_fingerprints
        on boilerplate_fingerprints.fingerprint = source_fingerprints.fingerprint
    group by source_fingerprints.session_id
),

clustered_boilerplate_counts as (
    select
        source_fingerprints.session_id,
        sum(source_fingerprints.calls) as clustered_boilerplate_calls
    from source_fingerprints
    join clustered_boilerplate_fingerprints
        on clustered_boilerplate_fingerprints.fingerprint = source_fingerprints.fingerprint
    group by source_fingerprints.session_id
),

delegation_counts as (
    select
        session_id,
        count(*) as delegations,
        sum(case when same_role is not null then 1 else 0 end) as classified_delegations,
        sum(case when same_role then 1 else 0 end) as same_role_delegations,
        sum(case when parent_status = 'missing' then 1 else 0 end) as orphan_delegations
    from source_delegations
    group by session_id
),

trim_counts as (
    select
        session_id,
        -- A planning with an explicit "no limit" budget (<= 0) can never trim, so
        -- it is no evidence about trim pressure; an unknown budget still counts.
        sum(case when budget <= 0 and not coalesce(trimmed, false) then 0 else 1 end)
            as plannings,
        sum(case when trimmed then 1 else 0 end) as trimmed_plannings,
        -- Trims that can say whether the goal's own turns fit: they had a goal
        -- boundary. `no_boundary` trims (head+tail without a goal) cannot.
        sum(case when trimmed and phase in ('pre_boundary', 'goal_overflow') then 1 else 0 end)
            as boundary_trims,
        sum(case when trimmed and phase = 'goal_overflow' then 1 else 0 end)
            as goal_overflow_trims,
        sum(case when trimmed and phase = 'no_boundary' then 1 else 0 end) as no_boundary_trims,
        sum(case when compaction_used then 1 else 0 end) as compaction_used_trims,
        sum(case when compaction_failed then 1 else 0 end) as compaction_failed_trims,
        sum(case when stale_ask_dropped then 1 else 0 end) as stale_ask_dropped_trims
    from source_trims
    group by session_id
),

shift_counts as (
    select
        session_id,
        count(*) as boundary_shifts,
        sum(case when reason <> 'first_need' then 1 else 0 end) as later_needs,
        sum(case when same_task_reemit then 1 else 0 end) as same_task_reemits
    from source_shifts
    group by session_id
),

source_activity as (
    select * from session_activity where session_id is not null
),

session_spans as (
    select
        session_id,
        sum(spans) as spans,
        min(first_span_at) as first_span_at,
        max(last_span_at) as last_span_at,
        min(day) as first_day,
        min(run_id) as run_id,
        min(service_name) as service_name,
        min(prompt_version) as prompt_version,
        min(model) as model,
        sum(sampling_marked_spans) as sampling_marked_spans,
        min(min_sampling_probability) as min_sampling_probability,
        count(distinct day) as days,
        count(distinct run_id) as runs,
        count(distinct service_name) as services,
        count(distinct prompt_version) as prompt_versions,
        count(distinct model) as models
    from source_activity
    group by session_id
),

final as (
    select
        s.session_id as session_id,
        s.spans as spans,                       -- call + trim + boundary-shift spans
        s.first_span_at as first_span_at,
        s.last_span_at as last_span_at,
        s.first_day as first_day,
        s.days as days,                         -- distinct days with spans
        s.runs as runs,                         -- distinct service.instance.id
        s.run_id as run_id,                     -- the (first) run, for grouping
        s.services as services,
        s.service_name as service_name,
        s.prompt_versions as prompt_versions,
        s.prompt_version as prompt_version,     -- the (first) prompt version
        s.models as models,
        s.model as model,
        coalesce(c.calls, 0) as calls,
        coalesce(c.calls_with_history, 0) as calls_with_history, -- history non-empty at start
        coalesce(c.history_reading_calls, 0) as history_reading_calls,
        coalesce(c.history_reading_calls_with_history, 0) as history_reading_calls_with_history,
        coalesce(c.contextview_shaped_calls, 0) as contextview_shaped_calls,
        coalesce(c.fingerprinted_calls, 0) as fingerprinted_calls,
        coalesce(b.boilerplate_calls, 0) as boilerplate_calls, -- fingerprint in >= S other sessions
        coalesce(cb.clustered_boilerplate_calls, 0)
            as clustered_boilerplate_calls,         -- its near-duplicate cluster in >= S other sessions
        coalesce(c.error_calls, 0) as error_calls,
        coalesce(c.compacted_calls, 0) as compacted_calls,
        coalesce(c.calls_with_code, 0) as calls_with_code,
        coalesce(d.delegations, 0) as delegations,
        coalesce(d.classified_delegations, 0) as classified_delegations, -- same_role known
        coalesce(d.same_role_delegations, 0) as same_role_delegations,
        coalesce(d.orphan_delegations, 0) as orphan_delegations, -- caller not found
        coalesce(t.plannings, 0) as plannings,
        coalesce(t.trimmed_plannings, 0) as trimmed_plannings,
        coalesce(t.boundary_trims, 0) as boundary_trims,   -- trimmed with a goal boundary
        coalesce(t.goal_overflow_trims, 0) as goal_overflow_trims,
        coalesce(t.no_boundary_trims, 0) as no_boundary_trims,
        coalesce(t.compaction_used_trims, 0) as compaction_used_trims,
        coalesce(t.compaction_failed_trims, 0) as compaction_failed_trims,
        coalesce(t.stale_ask_dropped_trims, 0) as stale_ask_dropped_trims,
        coalesce(h.boundary_shifts, 0) as boundary_shifts,
        coalesce(h.later_needs, 0) as later_needs,          -- shifts after the first need
        coalesce(h.same_task_reemits, 0) as same_task_reemits,
        s.sampling_marked_spans as sampling_marked_spans, -- spans with a head-sampling marker
        s.min_sampling_probability as min_sampling_probability
    from session_spans as s
    left join call_counts as c on c.session_id = s.session_id
    left join boilerplate_counts as b on b.session_id = s.session_id
    left join clustered_boilerplate_counts as cb on cb.session_id = s.session_id
    left join delegation_counts as d on d.session_id = s.session_id
    left join trim_counts as t on t.session_id = s.session_id
    left join shift_counts as h on h.session_id = s.session_id
)

select * from final
