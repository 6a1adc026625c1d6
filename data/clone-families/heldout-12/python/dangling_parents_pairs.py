records = context["conversation_history"]
present = set()
for rec in records:
    present.add(rec.get("call_id"))

result = [
    {
        "call_id": rec.get("call_id"),
        "missing_parent": rec.get("parent_call_id"),
        "method": rec.get("method_name") or rec.get("role"),
    }
    for rec in records
    if rec.get("parent_call_id") not in (None, "") and rec.get("parent_call_id") not in present
]
