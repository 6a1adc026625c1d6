from collections import Counter

records = context["conversation_history"]
per_parent = Counter()
for rec in records:
    parent_id = rec.get("parent_call_id")
    if parent_id and (rec.get("outcome_summary") or {}).get("ok") is False:
        per_parent[parent_id] += 1
result = dict(per_parent)
