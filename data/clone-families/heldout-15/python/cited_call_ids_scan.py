records = context.get("conversation_history") or []
ids = [r.get("call_id") for r in records if r.get("call_id")]

result = {}
for r in records:
    text = r.get("content") or ""
    if not isinstance(text, str) or not text:
        continue
    mentions = [other for other in ids if other != r.get("call_id") and other in text]
    if mentions:
        result[r.get("call_id")] = mentions
