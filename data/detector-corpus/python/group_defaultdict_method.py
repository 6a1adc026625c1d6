from collections import defaultdict

calls = defaultdict(list)
for rec in context["conversation_history"]:
    calls[rec["method_name"]].append(rec["call_id"])
result = {name: len(ids) for name, ids in calls.items()}
