calls = {}
for rec in context["conversation_history"]:
    name = rec.get("method_name")
    if not name:
        continue
    calls[name] = calls.get(name, 0) + 1

singles = [name for name in calls if calls[name] == 1]
result = {"called_once": singles, "distinct_methods": len(calls)}
