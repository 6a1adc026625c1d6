limit = int(kwargs["n"])
picked = []
for record in reversed(context["conversation_history"]):
    if len(picked) >= limit:
        break
    if record["speaker"] == "user":
        picked.append(record["content"])
picked.reverse()
result = {"count": len(picked), "messages": picked}
