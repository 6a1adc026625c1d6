history = context["conversation_history"]
[
    {"id": record.get("call_id"), "word_count": len(record["content"].split())}
    for record in history
    if record.get("role") == "user" and isinstance(record.get("content"), str) and len(record["content"].split()) > 20
]
