window = conversation_history[-8:]
total = 0
for rec in window:
    total += len(rec.get("content") or "")
result = total
