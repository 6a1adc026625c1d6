history = context.get("conversation_history", [])
LIMIT = 1000
long_outputs = []
for record in history:
    if record.get("role") != "tool":
        continue
    content = record.get("content")
    if isinstance(content, str) and len(content) > LIMIT:
        long_outputs.append({
            "call_id": record.get("call_id"),
            "method": record.get("method_name"),
            "chars": len(content),
        })
result = long_outputs
