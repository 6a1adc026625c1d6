calls = context["conversation_history"]
result = [
    c.get("call_id")
    for c in calls
    if c.get("method_name") and [a for a in c.get("args") or [] if type(a) in (list, dict)]
]
