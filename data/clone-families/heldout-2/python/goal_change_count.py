records = context.get("conversation_history", [])
changes = 0
for i in range(1, len(records)):
    if records[i].get("goal") != records[i - 1].get("goal"):
        changes += 1
result = changes
