start_id = kwargs.get("start_id")
end_id = kwargs.get("end_id")
history = context.get("conversation_history", [])

ids = [record.get("call_id") for record in history]
methods = []
if start_id in ids:
    first = ids.index(start_id)
    for record in history[first + 1:]:
        if record.get("method_name"):
            methods.append(record["method_name"])
result = {"since": start_id, "until": end_id, "methods": methods}
