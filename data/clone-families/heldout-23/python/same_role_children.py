role_of = {record.get("call_id"): record.get("role") for record in conversation_history}
result = []
for record in conversation_history:
    child_role = record.get("role")
    parent_role = role_of.get(record.get("parent_call_id"))
    if child_role and record.get("parent_call_id") and parent_role == child_role:
        result.append(record.get("call_id"))
