h = context["conversation_history"]
gaps = []
for prev, cur in zip(h, h[1:]):
    gaps.append(cur["timestamp"] - prev["timestamp"])
result = max(gaps) if gaps else 0
