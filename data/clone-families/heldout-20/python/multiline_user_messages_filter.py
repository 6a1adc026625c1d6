long_form = filter(
    lambda m: m.get("role") == "user"
    and isinstance(m.get("content"), str)
    and len(m["content"].splitlines()) > 1,
    conversation_history,
)
list(map(lambda m: m.get("call_id"), long_form))
