from datetime import datetime

def to_time(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))

succeeded = set()
result = {}
for record in conversation_history:
    method, stamp = record.get("method_name"), record.get("timestamp")
    if not method or not stamp or method in succeeded:
        continue
    if (record.get("outcome_summary") or {}).get("ok") is True:
        succeeded.add(method)
    else:
        result.setdefault(method, []).append(record.get("call_id"))
