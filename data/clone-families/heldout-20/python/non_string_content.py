history = context.get("conversation_history") or []
odd = []
for rec in history:
    content = rec.get("content")
    if content is not None and not isinstance(content, str):
        odd.append(rec.get("call_id"))
result = odd
