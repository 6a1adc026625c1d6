from collections import defaultdict

records = context.get("conversation_history") or []
kinds = defaultdict(list)
for r in records:
    o = r.get("outcome_summary") or {}
    g, t = r.get("goal"), o.get("error_type")
    if o.get("ok") is False and g and t and t not in kinds[g]:
        kinds[g].append(t)

result = [f"{g}: {', '.join(ts)}" for g, ts in kinds.items()]
