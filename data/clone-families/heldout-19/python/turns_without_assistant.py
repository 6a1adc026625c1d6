history = context.get("conversation_history", [])
result = []
turn_id = None
in_turn = False
answered = False
for record in history:
    if record.get("role") == "user":
        if in_turn and not answered:
            result.append(turn_id)
        turn_id, in_turn, answered = record.get("call_id"), True, False
    elif record.get("role") == "assistant":
        answered = True
if in_turn and not answered:
    result.append(turn_id)
