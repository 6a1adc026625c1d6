ACKS = {"yes", "y", "yep", "yeah", "ok", "okay", "sure", "go ahead", "do it"}

ids = []
for msg in context.get("conversation_history") or []:
    body = msg.get("content")
    if msg.get("role") == "user" and isinstance(body, str):
        word = body.strip().lower()
        while word.endswith((".", "!")):
            word = word[:-1]
        if word in ACKS:
            ids.append(str(msg.get("call_id")))
result = f"The user confirmed {len(ids)} time(s)" + (": " + ", ".join(ids) if ids else ".")
