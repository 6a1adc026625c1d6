def is_user(rec):
    return (rec.get("speaker") or "").lower() == "user"


records = context["conversation_history"]
want = kwargs.get("n", 3)
idx = len(records) - 1
tail = []
while idx >= 0 and len(tail) < want:
    if is_user(records[idx]):
        tail.insert(0, records[idx]["content"])
    idx -= 1
result = tail
