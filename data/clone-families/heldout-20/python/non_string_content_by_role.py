from collections import Counter

history = context.get("conversation_history") or []
odd = Counter()
for rec in history:
    content = rec.get("content")
    if content is not None and not isinstance(content, str):
        odd[rec.get("role")] += 1
result = dict(odd)
