-- cluster_round: the pending sketches one round of leader clustering can decide.
--
-- Grain: one row per decided pending sketch. The clustering is sequential
-- first-fit leader clustering in `seq` order: a sketch joins the earliest
-- leader within the threshold, else founds a cluster (becomes a leader). A
-- round decides, set-based, every sketch whose answer no undecided earlier
-- sketch can still change: one with no undecided similar sketch before its
-- earliest similar leader (or before itself, when it has none). Repeating
-- rounds gives exactly the sequential answer; each round decides at least
-- the earliest pending sketch. Registered leaders were tried first
-- (cluster_leader_matches.sql); leaders founded in this refresh are
-- `cluster_new_leaders`.
with

leader_candidates as (
    select pairs.fingerprint, min(leaders.seq) as leader_seq
    from cluster_pairs as pairs
    join cluster_new_leaders as leaders on leaders.fingerprint = pairs.other
    group by pairs.fingerprint
),

blocked as (
    select distinct pending.fingerprint
    from cluster_pending as pending
    join cluster_pairs as pairs on pairs.fingerprint = pending.fingerprint
    join cluster_pending as other on other.fingerprint = pairs.other
    left join leader_candidates on leader_candidates.fingerprint = pending.fingerprint
    where other.seq < coalesce(leader_candidates.leader_seq, pending.seq)
),

decided as (
    select pending.*, leader_candidates.leader_seq
    from cluster_pending as pending
    left join leader_candidates on leader_candidates.fingerprint = pending.fingerprint
    where pending.fingerprint not in (select fingerprint from blocked)
),

final as (
    select
        decided.fingerprint,
        decided.language,
        decided.sketch,
        decided.first_seen,
        decided.seq,
        coalesce(leaders.fingerprint, decided.fingerprint) as cluster_id,
        leaders.fingerprint is null as is_leader,
        coalesce(pairs.similarity, 1.0) as similarity
    from decided
    left join cluster_new_leaders as leaders on leaders.seq = decided.leader_seq
    left join cluster_pairs as pairs
        on pairs.fingerprint = decided.fingerprint
        and pairs.other = leaders.fingerprint
)

select * from final
