history = context.get("conversation_history", [])
calls = [record for record in history if record.get("method_name")]
bounced = []
for i in range(2, len(calls)):
    current = calls[i]["method_name"]
    previous = calls[i - 1]["method_name"]
    before = calls[i - 2]["method_name"]
    if current == before and current != previous:
        bounced.append(calls[i]["call_id"])
result = bounced
