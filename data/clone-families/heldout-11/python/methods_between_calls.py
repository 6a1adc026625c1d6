start_id = kwargs.get("start_id")
end_id = kwargs.get("end_id")
history = context.get("conversation_history", [])

ids = [record.get("call_id") for record in history]
methods = []
if start_id in ids and end_id in ids:
    first = ids.index(start_id)
    last = ids.index(end_id)
    for record in history[first + 1:last]:
        if record.get("method_name"):
            methods.append(record["method_name"])
result = methods
