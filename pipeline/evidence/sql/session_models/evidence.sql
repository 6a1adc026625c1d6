-- evidence: the point estimate of every criterion over all sessions.
--
-- Grain: one row per criterion. estimate = sum(numerator) / sum(denominator)
-- over sessions (never a mean of per-session ratios). Intervals and the
-- verdict are computed from `session_criteria` by the session bootstrap in
-- `pipeline/verdict/stats.py`; this table is the reproducible point estimate that
-- the dashboard and the audits read.
with

source_criteria as (
    select * from session_criteria
),

-- The design's classification; the pre-registration file decides which
-- criteria are primary for the verdict and their thresholds.
criteria_meta (criterion, primitive, kind, measure) as (
    values
        ('contextview_shaped_share', 'contextview', 'primary', 'share'),
        ('boilerplate_share', 'contextview', 'primary', 'share'),
        ('boilerplate_share_exact', 'contextview', 'descriptive', 'share'),
        ('same_role_share', 'recurse', 'primary', 'share'),
        ('goal_overflow_share', 'recurse', 'primary', 'share'),
        ('history_reliance', 'contextview', 'descriptive', 'share'),
        ('trim_pressure', 'recurse', 'descriptive', 'share'),
        ('boundary_shifts_per_session', 'recurse', 'descriptive', 'rate'),
        ('same_task_reemit_share', 'recurse', 'descriptive', 'share')
),

totals as (
    select
        criterion,
        sum(numerator) as numerator,
        sum(denominator) as denominator,
        sum(case when denominator > 0 then 1 else 0 end) as sessions,
        count(*) as sessions_total
    from source_criteria
    group by criterion
),

final as (
    select
        totals.criterion,                                   -- e.g. same_role_share, op_mix.grep
        coalesce(criteria_meta.primitive, 'contextview') as primitive, -- op_mix.* describe ContextView
        coalesce(criteria_meta.kind, 'descriptive') as kind, -- primary or descriptive
        coalesce(criteria_meta.measure, 'share') as measure, -- share in [0, 1] or rate
        totals.numerator,                                   -- summed over sessions
        totals.denominator,
        case
            when totals.denominator > 0
                then cast(totals.numerator as double) / totals.denominator
        end as estimate,                                    -- NULL when nothing to count
        totals.sessions,                                    -- sessions with a non-zero denominator
        totals.sessions_total                               -- sessions in scope
    from totals
    left join criteria_meta on criteria_meta.criterion = totals.criterion
)

select * from final
