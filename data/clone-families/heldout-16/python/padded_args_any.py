def padded(value):
    if not isinstance(value, str) or not value.strip():
        return False
    return value[0].isspace() or value[-1].isspace()


calls = [r for r in context.get("conversation_history", []) if r.get("method_name")]
result = [c.get("call_id") for c in calls if any(padded(a) for a in (c.get("args") or []))]
