def looks_numeric(value):
    if not isinstance(value, str):
        return False
    text = value.strip()
    if not text or any(ch.isalpha() or ch in "_+," for ch in text):
        return False
    try:
        float(text)
    except ValueError:
        return False
    return True


calls = [c for c in context.get("conversation_history") or [] if c.get("method_name")]
result = [c.get("call_id") for c in calls if any(looks_numeric(a) for a in c.get("args") or [])]
