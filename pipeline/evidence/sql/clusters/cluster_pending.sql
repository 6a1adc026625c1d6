-- cluster_pending: distinct sketches of code shapes not yet in a near-duplicate cluster.
--
-- Grain: one row per (language, sketch) among fingerprints of
-- `session_fingerprints` that `shape_cluster_members` does not hold, and whose
-- sketch no registered shape of the same language has (those join that
-- shape's cluster directly: identical sketches always share a cluster).
-- Clustering visits distinct sketches, not calls or fingerprints. `fingerprint`
-- is the sketch's first shape (earliest first seen, then smallest hash): the
-- cluster id when the sketch founds a cluster. `seq` is the visiting order,
-- after every registered shape. Fingerprints without a valid sketch are not
-- here: they become clusters of their own (cluster_sketchless.sql).
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
    select distinct language, sketch from shape_cluster_members where sketch is not null
),

unregistered as (
    select new_shapes.*
    from new_shapes
    left join registered_sketches as r
        on r.language = new_shapes.language and r.sketch = new_shapes.sketch
    where new_shapes.sketch is not null and r.sketch is null
),

firsts as (
    select
        language,
        sketch,
        fingerprint,
        first_seen,
        row_number() over (
            partition by language, sketch order by first_seen, fingerprint
        ) as rank_in_sketch
    from unregistered
),

start as (
    select coalesce(max(seq), 0) as last_seq from shape_cluster_members
),

final as (
    select
        firsts.fingerprint,
        firsts.language,
        firsts.sketch,
        firsts.first_seen,
        start.last_seq + row_number() over (order by firsts.first_seen, firsts.fingerprint) as seq
    from firsts
    cross join start
    where firsts.rank_in_sketch = 1
)

select * from final
