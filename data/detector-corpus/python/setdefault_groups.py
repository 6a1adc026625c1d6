groups = {}
for rec in context["conversation_history"]:
    groups.setdefault(rec["method_name"], []).append(rec)
result = {k: len(v) for k, v in groups.items()}
