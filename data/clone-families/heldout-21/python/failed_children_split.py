tally = {}
history = context["conversation_history"]
for item in history:
    parent = item.get("parent_call_id")
    if parent and (item.get("outcome_summary") or {}).get("ok") is False:
        tally[parent] = tally.get(parent, 0) + 1
result = tally
