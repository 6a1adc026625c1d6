from datetime import datetime

def to_time(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))

first_call = {}
result = {}
for record in conversation_history:
    if not isinstance(record, dict):
        continue
    method, stamp = record.get("method_name"), record.get("timestamp")
    if not method or not stamp:
        continue
    if method not in first_call:
        first_call[method] = to_time(stamp)
    outcome = record.get("outcome_summary")
    if isinstance(outcome, dict) and outcome.get("ok") is True and method not in result:
        result[method] = (to_time(stamp) - first_call[method]).total_seconds()
