from collections import defaultdict

children = defaultdict(list)
for rec in context["conversation_history"]:
    if rec.get("parent_call_id") and rec.get("method_name"):
        children[rec["parent_call_id"]].append((rec["method_name"], repr(rec.get("args") or [])))

result = {}
for parent, calls in children.items():
    repeated = sorted({name for name, args in calls if calls.count((name, args)) > 1})
    if repeated:
        result[parent] = repeated
