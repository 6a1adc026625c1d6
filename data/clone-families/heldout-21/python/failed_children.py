history = context["conversation_history"]
failed_children = {}
for record in history:
    parent = record.get("parent_call_id")
    if parent and (record.get("outcome_summary") or {}).get("ok") is False:
        failed_children[parent] = failed_children.get(parent, 0) + 1
result = failed_children
