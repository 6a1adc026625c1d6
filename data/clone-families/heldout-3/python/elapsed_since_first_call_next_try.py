from datetime import datetime


def epoch(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return datetime.fromisoformat(v.replace("Z", "+00:00")).timestamp()


hist = conversation_history
last_ts = next((epoch(h["timestamp"]) for h in reversed(hist) if "timestamp" in h), None)
first_ts = next((epoch(h["timestamp"]) for h in hist if "timestamp" in h), None)
duration = None if first_ts is None else last_ts - first_ts
result = duration
