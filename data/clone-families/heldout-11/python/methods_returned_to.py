history = context.get("conversation_history", [])
calls = [record for record in history if record.get("method_name")]
bounced = []
for i in range(1, len(calls)):
    current = calls[i]["method_name"]
    previous = calls[i - 1]["method_name"]
    earlier = {c["method_name"] for c in calls[:i - 1]}
    if current in earlier and current != previous:
        bounced.append(calls[i]["call_id"])
result = bounced
