current = None
for turn in conversation_history:
    if turn.get("goal"):
        current = turn["goal"]
result = f"Current goal: {current}" if current else "No goal set"
