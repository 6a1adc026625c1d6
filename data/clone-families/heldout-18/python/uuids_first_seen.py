import re

history = context.get("conversation_history") or []
first_seen = {}
for rec in history:
    text = rec.get("content")
    if type(text) is not str:
        continue
    for m in re.finditer(r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", text):
        first_seen.setdefault(m.group(0).lower(), rec.get("call_id"))
result = [{"uuid": u, "first_seen_in": cid} for u, cid in first_seen.items()]
