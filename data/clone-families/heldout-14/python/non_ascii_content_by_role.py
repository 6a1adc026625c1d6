records = context.get("conversation_history") or []
by_role = {}
for r in records:
    text = r.get("content") or ""
    if text and not text.isascii():
        by_role.setdefault(r.get("role") or "unknown", []).append(r.get("call_id"))
result = {"by_role": by_role, "total": sum(map(len, by_role.values()))}
