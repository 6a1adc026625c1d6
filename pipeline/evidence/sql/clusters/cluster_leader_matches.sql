-- cluster_leader_matches: the registered cluster each pending sketch joins, if any.
--
-- Grain: one row per pending sketch within the threshold of at least one
-- registered cluster leader of its language. First fit: it joins the
-- earliest such leader (smallest `seq`), so an existing cluster keeps its id
-- and a sketch that bridges two clusters joins the older one; clusters never
-- merge, which would break their diameter bound.
with

leader_bands as (
    select
        leaders.fingerprint,
        leaders.language,
        leaders.seq,
        leaders.sketch,
        bands.band_no,
        sketch_band(leaders.sketch, bands.band_no, $band_rows, $band_count) as band
    from shape_cluster_members as leaders
    cross join sketch_band_numbers($band_count) as bands
    where leaders.is_leader and leaders.sketch is not null
        and sketch_band(leaders.sketch, bands.band_no, $band_rows, $band_count) <> ''
),

candidates as (
    select distinct
        pending_bands.fingerprint,
        leader_bands.fingerprint as leader,
        leader_bands.seq as leader_seq,
        leader_bands.sketch as leader_sketch
    from cluster_pending_bands as pending_bands
    join leader_bands
        on leader_bands.band_no = pending_bands.band_no
        and leader_bands.band = pending_bands.band
        and leader_bands.language = pending_bands.language
),

scored as (
    select
        candidates.fingerprint,
        candidates.leader,
        candidates.leader_seq,
        sketch_similarity(pending.sketch, candidates.leader_sketch) as similarity
    from candidates
    join cluster_pending as pending on pending.fingerprint = candidates.fingerprint
),

kept as (
    select * from scored where similarity >= $threshold
),

first_fit as (
    select fingerprint, min(leader_seq) as leader_seq
    from kept
    group by fingerprint
),

final as (
    select kept.fingerprint, kept.leader as cluster_id, kept.similarity
    from kept
    join first_fit
        on first_fit.fingerprint = kept.fingerprint
        and first_fit.leader_seq = kept.leader_seq
)

select * from final
