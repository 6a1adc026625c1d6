history = context["conversation_history"]
last_reply = None
repeats = []
for entry in history:
    text = entry.get("content")
    if entry.get("role") == "assistant" and type(text) is str:
        if text == last_reply:
            preview = text if len(text) <= 40 else text[:37] + "..."
            repeats.append(f"{entry.get('call_id')} repeats the previous reply: {preview!r}")
        last_reply = text
"\n".join(repeats) if repeats else "No assistant reply repeats the one before it."
