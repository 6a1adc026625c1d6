from collections import Counter

errors = Counter()
latest = None
for rec in conversation_history:
    out = rec.get("outcome_summary") or {}
    if not out.get("ok") and out.get("error_type"):
        errors[out["error_type"]] += 1
        latest = out["error_type"]
result = (latest, errors[latest]) if latest else None
