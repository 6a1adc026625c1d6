def assistant_text(record):
    if record.get("role") == "assistant" and isinstance(record.get("content"), str):
        return record["content"]
    return None


last = None
duplicates = []
for position, record in enumerate(conversation_history):
    text = assistant_text(record)
    if text is None:
        continue
    if last == text:
        duplicates.append({"position": position, "call_id": record.get("call_id"), "chars": len(text)})
    last = text
result = duplicates
