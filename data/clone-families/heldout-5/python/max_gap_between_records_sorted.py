from datetime import datetime

h = context["conversation_history"]
i = 1
deltas = []
while i < len(h):
    a = datetime.fromisoformat(h[i - 1]["timestamp"].replace("Z", "+00:00"))
    b = datetime.fromisoformat(h[i]["timestamp"].replace("Z", "+00:00"))
    deltas.append((b - a).total_seconds())
    i += 1

deltas.sort(reverse=True)
result = deltas[0] if deltas else None
