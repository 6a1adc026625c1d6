history = context.get("conversation_history") or []
openings = []
for record in history:
    text = record.get("content")
    if record.get("role") == "user" and isinstance(text, str):
        openings.append({"call_id": record.get("call_id"), "first_line": text.strip().split("\n")[0]})
result = openings
