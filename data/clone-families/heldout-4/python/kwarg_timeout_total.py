history = context.get("conversation_history", [])

total = 0
for rec in history:
    if "timeout" in rec["kwargs"]:
        total += rec["kwargs"]["timeout"]

result = total
