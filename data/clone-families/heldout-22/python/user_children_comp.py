records = context["conversation_history"]
asked = {rec.get("call_id") for rec in records if rec.get("role") == "user"}
result = [
    {"call_id": rec.get("call_id"), "parent": rec.get("parent_call_id")}
    for rec in records
    if rec.get("parent_call_id") and rec.get("parent_call_id") in asked
]
