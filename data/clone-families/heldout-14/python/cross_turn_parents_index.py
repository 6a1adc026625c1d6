records = context.get("conversation_history") or []
turn_numbers = []
n = 0
for r in records:
    if r.get("role") == "user":
        n += 1
    turn_numbers.append(n)
where = {r.get("call_id"): i for i, r in enumerate(records)}

result = [
    {
        "call_id": r.get("call_id"),
        "parent": r["parent_call_id"],
        "turn": turn_numbers[i],
        "parent_turn": turn_numbers[where[r["parent_call_id"]]],
    }
    for i, r in enumerate(records)
    if r.get("parent_call_id") in where
    and turn_numbers[where[r["parent_call_id"]]] != turn_numbers[i]
]
