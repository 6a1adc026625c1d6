-- audit: shares are proportions and rates are non-negative.
-- Returns criteria whose estimate or counts are impossible; must return none.
select
    criterion,
    measure,
    numerator,
    denominator,
    estimate
from evidence
where numerator < 0
    or denominator < 0
    or (measure = 'share' and numerator > denominator)
    or (measure = 'share' and (estimate < 0 or estimate > 1))
    or (measure = 'rate' and estimate < 0)
    or (denominator > 0 and estimate is null)
