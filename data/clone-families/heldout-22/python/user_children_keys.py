history = context["conversation_history"]
children = []
user_ids = {record.get("call_id") for record in history if record.get("role") == "user"}
for record in history:
    parent = record.get("parent_call_id")
    if parent and parent in user_ids:
        children.append({"child": record.get("call_id"), "user_message": parent})
result = children
