history = context["conversation_history"]
user_ids = {record.get("call_id") for record in history if record.get("role") == "user"}
children = []
for record in history:
    if not isinstance(record, dict) or not user_ids:
        continue
    parent = record.get("parent_call_id")
    if parent and parent in user_ids:
        children.append(record.get("call_id"))
result = children
