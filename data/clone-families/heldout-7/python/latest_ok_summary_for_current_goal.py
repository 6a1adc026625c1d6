history = context.get("conversation_history", [])
current_id = context.get("call_id")

goal = None
for record in history:
    if record.get("call_id") == current_id:
        goal = record.get("goal")
        break

latest = None
if goal:
    for record in history:
        outcome = record.get("outcome_summary") or {}
        if record.get("goal") == goal and outcome.get("ok"):
            latest = outcome.get("summary")

result = latest
