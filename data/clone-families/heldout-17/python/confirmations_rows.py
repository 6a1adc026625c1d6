def normalise(text):
    return text.strip().lower().rstrip("!.")


ok_words = ("yes", "y", "yep", "yeah", "ok", "okay", "sure", "go ahead", "do it")
[
    {"call_id": m.get("call_id"), "said": m["content"].strip(), "at": m.get("timestamp")}
    for m in conversation_history
    if m.get("role") == "user" and isinstance(m.get("content"), str) and normalise(m["content"]) in ok_words
]
