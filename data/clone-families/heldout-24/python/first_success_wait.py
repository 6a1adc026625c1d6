from datetime import datetime

def to_time(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))

first_call = {}
result = {}
for record in conversation_history:
    method, stamp = record.get("method_name"), record.get("timestamp")
    if not method or not stamp:
        continue
    first_call.setdefault(method, to_time(stamp))
    if (record.get("outcome_summary") or {}).get("ok") is True and method not in result:
        result[method] = (to_time(stamp) - first_call[method]).total_seconds()
