history = context.get("conversation_history", [])
tail = history[-4:]
[
    (m.get("call_id"), m["content"][:60])
    for m in tail
    if isinstance(m.get("content"), str)
]
