history = context.get("conversation_history") or []
child_pairs = {
    (record.get("parent_call_id"), record.get("method_name"))
    for record in history
    if record.get("parent_call_id") and record.get("method_name")
}
result = [
    {"call_id": record.get("call_id"), "method": record.get("method_name")}
    for record in history
    if (record.get("outcome_summary") or {}).get("ok") is False
    and record.get("method_name")
    and (record.get("call_id"), record.get("method_name")) in child_pairs
]
