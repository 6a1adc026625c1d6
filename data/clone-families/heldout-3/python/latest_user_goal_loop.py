latest_goal = None
for rec in conversation_history:
    if rec.get("speaker") == "user" and rec.get("goal"):
        latest_goal = rec["goal"]
result = latest_goal
