from collections import defaultdict

by_type = defaultdict(list)
failed = [
    h
    for h in context.get("conversation_history", [])
    if h.get("outcome_summary") and not h["outcome_summary"].get("ok")
]
for h in failed:
    by_type[h["outcome_summary"].get("error_type") or "UnknownError"].append(h["call_id"])
result = dict(by_type)
