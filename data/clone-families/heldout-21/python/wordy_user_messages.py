history = context["conversation_history"]
wordy = []
for record in history:
    text = record.get("content")
    if record.get("role") == "user" and isinstance(text, str) and len(text.split()) > 20:
        wordy.append({"call_id": record.get("call_id"), "words": len(text.split())})
wordy
