messages = context["conversation_history"]
[
    msg.get("call_id")
    for msg in messages
    if msg.get("role") == "user" and isinstance(msg.get("content"), str) and len(msg["content"].split()) > 20
]
