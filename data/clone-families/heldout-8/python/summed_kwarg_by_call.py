param = kwargs.get("key", "timeout")
log = context.get("conversation_history", [])
by_call = {}
for entry in log:
    options = entry.get("kwargs") or {}
    if param in options and type(options[param]) in (int, float):
        by_call[entry["call_id"]] = options[param]

result = {"param": param, "total": sum(by_call.values()), "by_call": by_call}
