from collections import Counter

errors = Counter()
for rec in conversation_history:
    out = rec.get("outcome_summary") or {}
    if not out.get("ok") and out.get("error_type"):
        errors[out["error_type"]] += 1
result = errors.most_common(1)[0] if errors else None
