from collections import Counter

marks = Counter()
for record in conversation_history:
    role, text = record.get("role"), record.get("content")
    if role and isinstance(text, str):
        marks[role] += text.count("?")
dict(marks)
