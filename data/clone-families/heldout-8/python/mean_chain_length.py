history = context.get("conversation_history", [])
parent_of = {r["call_id"]: r.get("parent_call_id") for r in history}
total = 0
for r in history:
    length = 1
    cur = r.get("parent_call_id")
    while cur in parent_of:
        length += 1
        cur = parent_of[cur]
    total += length
result = total / len(history) if history else 0
