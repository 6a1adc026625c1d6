[
    (msg.get("call_id"), len(msg["content"].splitlines()))
    for msg in conversation_history
    if msg.get("role") == "user"
    and isinstance(msg.get("content"), str)
    and len(msg["content"].splitlines()) > 1
]
