history = context["conversation_history"]
parents = []
for record in history:
    parent = record.get("parent_call_id")
    if parent and (record.get("outcome_summary") or {}).get("ok") is False:
        if parent not in parents:
            parents.append(parent)
result = parents
