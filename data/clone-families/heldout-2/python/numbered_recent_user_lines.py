def is_user(rec):
    return rec.get("speaker") == "user"


k = kwargs.get("n") or 3
recent = list(filter(is_user, conversation_history))[-k:]
if not recent:
    result = "The user has not said anything yet."
else:
    result = "\n".join(f"{i + 1}. {m.get('content')}" for i, m in enumerate(recent))
