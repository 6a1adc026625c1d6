-- cluster_expand: registry rows for every new fingerprint, from the decisions on sketches.
--
-- Grain: one row per fingerprint of `session_fingerprints` absent from
-- `shape_cluster_members`. A fingerprint takes the decision on its sketch: a
-- registered sketch's cluster, this refresh's decision (`cluster_decided`),
-- or, without a valid sketch, a cluster of its own. Only the sketch's first
-- shape is the leader; the others are members at similarity 1.
with

new_shapes as (
    select
        fingerprint,
        min(sketch) as sketch,
        coalesce(min(example_language), '') as language,
        min(first_seen) as first_seen
    from session_fingerprints
    where fingerprint not in (select fingerprint from shape_cluster_members)
    group by fingerprint
),

registered_sketches as (
    select language, sketch, min(cluster_id) as cluster_id, min(similarity) as similarity
    from shape_cluster_members
    where sketch is not null
    group by language, sketch
),

start as (
    select coalesce(max(seq), 0) as last_seq from shape_cluster_members
),

resolved as (
    select
        new_shapes.fingerprint,
        new_shapes.language,
        new_shapes.sketch,
        new_shapes.first_seen,
        coalesce(registered.cluster_id, decided.cluster_id, new_shapes.fingerprint) as cluster_id,
        coalesce(decided.fingerprint = new_shapes.fingerprint and decided.is_leader, false)
            or (new_shapes.sketch is null) as is_leader,
        case when new_shapes.sketch is not null
            then coalesce(registered.similarity, decided.similarity) end as similarity
    from new_shapes
    left join registered_sketches as registered
        on registered.language = new_shapes.language and registered.sketch = new_shapes.sketch
    left join cluster_decided as decided
        on decided.language = new_shapes.language and decided.sketch = new_shapes.sketch
),

final as (
    select
        resolved.*,
        start.last_seq + row_number() over (order by resolved.first_seen, resolved.fingerprint)
            as seq
    from resolved
    cross join start
)

select * from final
