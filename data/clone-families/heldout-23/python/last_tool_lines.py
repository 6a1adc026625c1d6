history = context.get("conversation_history", [])
result = []
for record in history:
    output = record.get("content")
    if record.get("role") != "tool" or not isinstance(output, str):
        continue
    lines = output.strip().splitlines()
    result.append({"call_id": record.get("call_id"), "last_line": lines[-1] if lines else ""})
