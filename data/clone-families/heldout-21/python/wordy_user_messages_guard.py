wordy = []
history = context["conversation_history"]
for record in history:
    if not isinstance(record, dict) or record.get("role") != "user":
        continue
    text = record.get("content")
    if not isinstance(text, str) or not text.strip():
        continue
    if len(text.split()) > 20:
        wordy.append({"message": record.get("call_id"), "word_total": len(text.split())})
wordy
