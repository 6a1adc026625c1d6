history = context["conversation_history"]
lookup = {r["call_id"]: r for r in history if r.get("call_id")}
result = [
    {"call_id": r.get("call_id"), "method": r.get("method_name"), "from": lookup[r["parent_call_id"]].get("speaker"), "to": r.get("speaker")}
    for r in history
    if r.get("parent_call_id") in lookup
    and r.get("speaker")
    and lookup[r["parent_call_id"]].get("speaker")
    and r.get("speaker") != lookup[r["parent_call_id"]].get("speaker")
]
