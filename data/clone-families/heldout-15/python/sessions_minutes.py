from datetime import datetime

history = context.get("conversation_history") or []
stamps = [datetime.strptime(r["timestamp"], "%Y-%m-%dT%H:%M:%SZ") for r in history]

blocks = []
for i, stamp in enumerate(stamps):
    if i == 0 or (stamp - stamps[i - 1]).total_seconds() > 10 * 60:
        blocks.append([i, i])
    else:
        blocks[-1][1] = i

result = [
    {
        "session": n + 1,
        "from": history[a].get("call_id"),
        "size": b - a + 1,
        "minutes": round((stamps[b] - stamps[a]).total_seconds() / 60, 2),
    }
    for n, (a, b) in enumerate(blocks)
]
