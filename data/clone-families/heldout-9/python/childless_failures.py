history = context.get("conversation_history", [])
result = []
for i, rec in enumerate(history):
    method = rec.get("method_name")
    if not method or rec["outcome_summary"].get("ok"):
        continue
    has_child = any(other.get("parent_call_id") == rec["call_id"] for other in history)
    if not has_child:
        result.append(rec["call_id"])
