history = context.get("conversation_history", [])
turn_of = {}
current_turn = None
for record in history:
    if record.get("role") == "user":
        current_turn = record.get("call_id")
    turn_of[record.get("call_id")] = current_turn

crossing = []
for record in history:
    parent = record.get("parent_call_id")
    if not parent or parent not in turn_of:
        continue
    if turn_of[parent] != turn_of[record.get("call_id")]:
        crossing.append(record.get("call_id"))
result = crossing
