history = context.get("conversation_history") or []
tool_texts = [item for item in history if item.get("role") == "tool" and isinstance(item.get("content"), str)]
result = [
    (out["content"].splitlines() or [""])[-1]
    for out in tool_texts[-4:]
]
