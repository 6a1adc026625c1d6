pairs = [(r["goal"], r["method_name"]) for r in conversation_history if r.get("goal") and r.get("method_name")]
unique_pairs = list(dict.fromkeys(pairs))
grouped = {}
for goal, method in unique_pairs:
    grouped.setdefault(goal, []).append(method)
[{"goal": goal, "methods": methods, "distinct": len(methods)} for goal, methods in grouped.items()]
