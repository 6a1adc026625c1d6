from datetime import datetime

history = context.get("conversation_history", [])
result = []
for i, r in enumerate(history):
    if r.get("role") != "user":
        continue
    j = i
    while j + 1 < len(history) and history[j + 1].get("role") != "user":
        j += 1
    start = datetime.fromisoformat(r["timestamp"])
    end = datetime.fromisoformat(history[j]["timestamp"])
    result.append((end - start).total_seconds())
