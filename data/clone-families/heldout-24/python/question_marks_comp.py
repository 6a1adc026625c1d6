texts = [
    (r.get("role"), r.get("content")) for r in conversation_history
    if r.get("role") and isinstance(r.get("content"), str)
]
roles = list(dict.fromkeys(role for role, _ in texts))
{role: sum(body.count("?") for who, body in texts if who == role) for role in roles}
