history = context["conversation_history"]
per_speaker = {}
for record in history:
    text = record.get("content")
    if record.get("role") == "user" and isinstance(text, str) and len(text.split()) > 20:
        per_speaker[record.get("speaker")] = per_speaker.get(record.get("speaker"), 0) + 1
per_speaker
