history = context["conversation_history"]
user_ids = {record.get("call_id") for record in history if record.get("role") == "user"}
children = 0
for record in history:
    parent = record.get("parent_call_id")
    if parent and parent in user_ids:
        children += 1
result = children
