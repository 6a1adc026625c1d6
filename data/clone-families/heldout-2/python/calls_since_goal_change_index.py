records = context.get("conversation_history", [])
change_at = 0
for i in range(1, len(records)):
    if records[i].get("goal") != records[i - 1].get("goal"):
        change_at = i
result = len(records) - change_at
