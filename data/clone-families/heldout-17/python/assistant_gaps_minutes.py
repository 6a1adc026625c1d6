from datetime import datetime

history = context.get("conversation_history", [])
times = [
    datetime.strptime(r["timestamp"][:19], "%Y-%m-%dT%H:%M:%S")
    for r in history
    if r.get("role") == "assistant" and r.get("timestamp")
]
minutes = [round((b - a).total_seconds() / 60, 2) for a, b in zip(times, times[1:])]
result = {"gaps_minutes": minutes, "longest": max(minutes) if minutes else None}
