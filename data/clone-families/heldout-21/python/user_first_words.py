firsts = []
for record in conversation_history:
    text = record.get("content")
    if record.get("role") == "user" and isinstance(text, str):
        words = text.split()
        firsts.append({"call_id": record.get("call_id"), "first_word": words[0] if words else ""})
firsts
