replies = [
    (m.get("call_id"), m["content"])
    for m in context.get("conversation_history") or []
    if m.get("role") == "assistant" and isinstance(m.get("content"), str)
]
result = [cid for (_, before), (cid, text) in zip(replies, replies[1:]) if text == before]
