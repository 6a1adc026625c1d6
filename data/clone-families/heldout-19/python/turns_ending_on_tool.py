history = context.get("conversation_history", [])
result = []
turn_id = None
in_turn = False
last_role = None
for record in history:
    if record.get("role") == "user":
        if in_turn and last_role == "tool":
            result.append(turn_id)
        turn_id, in_turn = record.get("call_id"), True
    last_role = record.get("role")
if in_turn and last_role == "tool":
    result.append(turn_id)
