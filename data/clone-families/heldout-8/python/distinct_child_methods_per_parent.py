history = context.get("conversation_history", [])
methods = {}
for r in history:
    if r.get("parent_call_id") and r.get("method_name"):
        methods.setdefault(r["parent_call_id"], set()).add(r["method_name"])
result = {parent: sorted(names) for parent, names in methods.items()}
