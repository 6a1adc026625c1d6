records = context["conversation_history"]
threshold = 1_000
result = [
    r.get("call_id")
    for r in records
    if r.get("role") == "tool" and isinstance(r.get("content"), str) and len(r["content"]) > threshold
]
