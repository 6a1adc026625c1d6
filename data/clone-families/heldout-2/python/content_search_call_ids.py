query = str(args[0]).lower() if args else ""
matches = []
for rec in conversation_history:
    text = rec.get("content")
    if isinstance(text, str) and query in text.lower():
        matches.append(rec.get("call_id"))
result = matches
