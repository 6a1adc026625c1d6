log = context["conversation_history"]
rows = []
for entry in log:
    params = entry.get("kwargs")
    if not isinstance(params, dict):
        continue
    missing = [name for name in sorted(params) if params[name] is None]
    if not missing:
        continue
    rows.append({"call_id": entry["call_id"], "method": entry.get("method_name"), "none_kwargs": missing})
result = {"calls": rows, "count": len(rows)}
