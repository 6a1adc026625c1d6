from collections import Counter

history = context.get("conversation_history", [])
classes = {}
for rec in history:
    outcome = rec.get("outcome_summary") or {}
    method = rec.get("method_name")
    if method and outcome.get("ok") and outcome.get("value_class"):
        classes.setdefault(method, Counter())[outcome["value_class"]] += 1
result = {method: found.most_common(1)[0][0] for method, found in classes.items()}
