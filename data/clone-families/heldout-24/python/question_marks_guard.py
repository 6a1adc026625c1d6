from collections import Counter

marks = Counter()
for record in conversation_history:
    if not isinstance(record, dict):
        continue
    text = record.get("content")
    role = record.get("role")
    if not role or not isinstance(text, str):
        continue
    marks[role] += text.count("?")
dict(marks)
