asking = []
for record in conversation_history:
    role, text = record.get("role"), record.get("content")
    if role and isinstance(text, str) and "?" in text:
        asking.append([record.get("call_id"), role])
asking
