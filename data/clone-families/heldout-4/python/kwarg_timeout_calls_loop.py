history = context.get("conversation_history", [])

matches = []
for rec in history:
    if "timeout" in rec["kwargs"]:
        matches.append(rec["call_id"])

result = matches
