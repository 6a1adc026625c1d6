name = kwargs["key"] if "key" in kwargs else "timeout"
values = [
    (call.get("kwargs") or {})[name]
    for call in context["conversation_history"]
    if (call.get("kwargs") or {}).get(name) is not None
]
result = {"key": name, "total": sum(values), "calls": len(values)}
