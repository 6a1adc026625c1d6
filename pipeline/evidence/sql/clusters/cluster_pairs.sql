-- cluster_pairs: pending sketches within the threshold of each other.
--
-- Grain: one row per ordered pair (fingerprint, other) of pending sketches of
-- one language that share an LSH band and whose similarity (share of equal
-- MinHash words) is at least `$threshold`. Both orders are present; each
-- unordered pair is scored once.
with

candidates as (
    select distinct a.fingerprint, b.fingerprint as other
    from cluster_pending_bands as a
    join cluster_pending_bands as b
        on b.band_no = a.band_no
        and b.band = a.band
        and b.language = a.language
        and b.fingerprint > a.fingerprint
),

scored as (
    select
        candidates.fingerprint,
        candidates.other,
        sketch_similarity(p.sketch, q.sketch) as similarity
    from candidates
    join cluster_pending as p on p.fingerprint = candidates.fingerprint
    join cluster_pending as q on q.fingerprint = candidates.other
),

kept as (
    select * from scored where similarity >= $threshold
)

select fingerprint, other, similarity from kept
union all
select other as fingerprint, fingerprint as other, similarity from kept
