from datetime import datetime

started = {}
result = {}

def as_datetime(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))

for item in conversation_history:
    name, when = item.get("method_name"), item.get("timestamp")
    if not name or not when:
        continue
    started.setdefault(name, as_datetime(when))
    if (item.get("outcome_summary") or {}).get("ok") is True and name not in result:
        result[name] = (as_datetime(when) - started[name]).total_seconds()
