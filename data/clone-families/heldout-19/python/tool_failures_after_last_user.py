from datetime import datetime, timedelta


def parse_ts(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


history = context.get("conversation_history", [])
user_times = [parse_ts(r["timestamp"]) for r in history if r.get("role") == "user" and r.get("timestamp")]
result = []
if user_times:
    start = user_times[-1]
    for record in history:
        outcome = record.get("outcome_summary") or {}
        if record.get("role") == "tool" and record.get("timestamp") and outcome.get("ok") is False:
            if start <= parse_ts(record["timestamp"]) <= start + timedelta(minutes=30):
                result.append({"call_id": record.get("call_id"), "method": record.get("method_name"), "error_type": outcome.get("error_type")})
