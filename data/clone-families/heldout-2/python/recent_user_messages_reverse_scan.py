limit = int(kwargs.get("n", 3))
picked = []
for entry in reversed(context["conversation_history"]):
    if len(picked) >= limit:
        break
    if entry.get("speaker") != "user":
        continue
    picked.append(entry.get("content", ""))
picked.reverse()
result = picked
