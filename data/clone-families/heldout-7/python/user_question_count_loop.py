history = context.get("conversation_history", [])
questions = 0
for record in history:
    if record.get("role") == "user":
        text = (record.get("content") or "").strip()
        if text.endswith("?"):
            questions += 1
result = questions
