from collections import Counter

hist = context.get("conversation_history") or []
error_kinds = Counter()
for r in hist:
    if r["outcome_summary"].get("ok", False):
        continue
    error_kinds[r["outcome_summary"].get("error_type")] += 1
counts = dict(error_kinds)
result = {"by_error_type": counts, "failures": sum(counts.values())}
