history = context.get("conversation_history") or []
odd = []
for rec in history:
    if not isinstance(rec, dict):
        continue
    content = rec.get("content")
    if content is not None and not isinstance(content, str):
        odd.append({"record": rec.get("call_id"), "role": rec.get("role")})
result = odd
