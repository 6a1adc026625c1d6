history = context.get("conversation_history", [])

current = 0
for rec in history:
    if rec["outcome_summary"]["ok"]:
        current = 0
    else:
        current += 1

result = current
