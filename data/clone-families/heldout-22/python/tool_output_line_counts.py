history = context.get("conversation_history", [])
sizes = [
    (entry.get("call_id"), entry["content"].count("\n") + 1)
    for entry in history
    if entry.get("role") == "tool"
    and isinstance(entry.get("content"), str)
]
sizes
