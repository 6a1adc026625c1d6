query = str(args[0]).lower() if args else ""
hits = 0
for rec in conversation_history:
    text = rec.get("content")
    if isinstance(text, str) and query in text.lower():
        hits += 1
result = hits
