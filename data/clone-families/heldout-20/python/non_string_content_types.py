history = context.get("conversation_history") or []
result = [
    (entry.get("call_id"), type(entry.get("content")).__name__)
    for entry in history
    if entry.get("content") is not None and not isinstance(entry.get("content"), str)
]
