-- evidence_params: the pre-registered parameters the evidence SQL depends on.
--
-- Grain: one row per parameter. Built from prepared-statement parameters by
-- the refresh (and by the report in its scratch namespace), so the models
-- read parameters from a table rather than from string templating, and the
-- values used are stored next to the evidence they produced.
with

final as (
    select
        'boilerplate_min_other_sessions' as name,   -- S: other sessions a boilerplate shape recurs in
        cast($boilerplate_min_other_sessions as double) as value
    union all
    select
        'boilerplate_similarity',                   -- near-duplicate clusters: similarity to a leader
        cast($boilerplate_similarity as double)
)

select * from final
