def is_camel(name):
    return any(a.islower() and b.isupper() for a, b in zip(name, name[1:]))


calls = context.get("conversation_history") or []
[
    c.get("call_id")
    for c in calls
    if isinstance(c.get("kwargs"), dict) and any(is_camel(str(k)) for k in c["kwargs"])
]
