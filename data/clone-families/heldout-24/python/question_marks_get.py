per_role = {}
for entry in conversation_history:
    who, body = entry.get("role"), entry.get("content")
    if who and isinstance(body, str):
        per_role[who] = per_role.get(who, 0) + body.count("?")
per_role
