turns = context["conversation_history"]
changes = [
    (a.get("speaker"), b.get("speaker"), b.get("call_id"))
    for a, b in zip(turns, turns[1:])
    if a.get("speaker") != b.get("speaker")
]
result = {"switches": len(changes), "records": len(turns), "handoffs": changes}
