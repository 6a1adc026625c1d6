history = context.get("conversation_history") or []
negative_openers = ["actually", "nope", "no", "wrong", "stop"]
flagged = []
for position, item in enumerate(history):
    if item.get("role") != "user":
        continue
    text = (item.get("content") or "").lstrip().lower()
    word = ""
    for ch in text:
        if ch.isalpha() or ch == "'":
            word += ch
        else:
            break
    if word in negative_openers:
        flagged.append({"call_id": item.get("call_id"), "position": position})
result = {"corrections": flagged, "count": len(flagged)}
