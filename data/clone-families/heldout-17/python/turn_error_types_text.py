history = context["conversation_history"]
report = []
user_id, types = None, []


def flush():
    if user_id is not None and types:
        report.append(f"after user message {user_id}: {', '.join(types)}")


for h in history:
    if h.get("role") == "user":
        flush()
        user_id, types = h.get("call_id"), []
    if user_id is None:
        continue
    o = h.get("outcome_summary") or {}
    if o.get("ok") is False and o.get("error_type") and o["error_type"] not in types:
        types.append(o["error_type"])
flush()
result = "\n".join(report) if report else "No user turn had a typed failure."
