original_goal = None
for rec in conversation_history:
    if rec.get("speaker") == "user" and rec.get("goal"):
        original_goal = rec["goal"]
        break
result = original_goal
