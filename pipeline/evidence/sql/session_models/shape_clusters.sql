-- shape_clusters: near-duplicate clusters of history-processing code and how widely they recur.
--
-- Grain: one row per cluster (`cluster_id`, its leader's fingerprint) with at
-- least one member shape in `session_fingerprints`. Members are exact
-- fingerprints; the registry `shape_cluster_members` says which cluster each
-- belongs to (clusters.py: first-fit leader clustering of content-free
-- sketches at the pre-registered similarity). A shape the registry does not
-- hold (a reader on a store refreshed before clusters existed) is a cluster
-- of its own. A cluster is boilerplate when it recurs in >= S + 1 sessions,
-- S the pre-registered `boilerplate.min_other_sessions`: one count of
-- distinct sessions over all its shapes, so re-spellings add up.
--
-- Rebuilt for the clusters a refresh touched (a filtered view of
-- session_fingerprints), in full otherwise.
with

params as (
    select cast(value as bigint) as min_other_sessions
    from evidence_params
    where name = 'boilerplate_min_other_sessions'
),

-- The table alias is `shape`, not `shapes`: ClickHouse lets the output
-- alias `shapes` below capture a table alias of that name.
members as (
    select
        shape.*,
        coalesce(registry.cluster_id, shape.fingerprint) as cluster_id,
        coalesce(registry.is_leader, true) as is_leader,
        registry.similarity
    from session_fingerprints as shape
    left join shape_cluster_members as registry on registry.fingerprint = shape.fingerprint
),

per_cluster as (
    select
        cluster_id,
        count(distinct fingerprint) as shapes,
        sum(calls) as calls,
        count(distinct session_id) as sessions,
        sum(contextview_shaped_calls) as contextview_shaped_calls,
        min(similarity) as min_similarity,
        avg(similarity) as mean_similarity,
        min(first_seen) as first_seen,
        max(last_seen) as last_seen
    from members
    group by cluster_id
),

-- The example shown: a member with captured code first, then the leader,
-- then the earliest call; ties by span id.
ranked_examples as (
    select
        members.*,
        row_number() over (
            partition by cluster_id
            order by
                case when example_code is null then 1 else 0 end,
                case when is_leader then 0 else 1 end,
                example_at,
                example_span_id
        ) as example_rank
    from members
),

final as (
    select
        per_cluster.cluster_id as cluster_id,
        per_cluster.shapes as shapes,               -- distinct exact fingerprints (members)
        per_cluster.calls as calls,                 -- history-reading calls of its shapes
        per_cluster.sessions as sessions,           -- distinct sessions using any of them
        per_cluster.sessions - 1 as other_sessions,
        per_cluster.sessions - 1 >= params.min_other_sessions as is_boilerplate,
        per_cluster.contextview_shaped_calls as contextview_shaped_calls,
        per_cluster.min_similarity as min_similarity, -- least similar member to the leader
        per_cluster.mean_similarity as mean_similarity,
        per_cluster.first_seen as first_seen,
        per_cluster.last_seen as last_seen,
        ex.fingerprint as example_fingerprint,
        ex.session_id as example_session_id,
        ex.example_trace_id as example_trace_id,
        ex.example_span_id as example_span_id,
        ex.example_role as example_role,
        ex.example_language as example_language,
        ex.example_code as example_code,            -- NULL unless content capture was on
        ex.example_ops as example_ops,
        ex.example_at as example_at
    from per_cluster
    cross join params
    join ranked_examples as ex
        on ex.cluster_id = per_cluster.cluster_id and ex.example_rank = 1
)

select * from final
