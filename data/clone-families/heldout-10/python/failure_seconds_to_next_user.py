from datetime import datetime


def parse_ts(value):
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")


history = context.get("conversation_history", [])
pending = []
offsets = []
for record in history:
    if record.get("role") == "user":
        user_time = parse_ts(record["timestamp"])
        for call_id, failed_at in pending:
            offsets.append({"call_id": call_id, "seconds_until_user": (user_time - failed_at).total_seconds()})
        pending = []
        continue
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is False:
        pending.append((record["call_id"], parse_ts(record["timestamp"])))
result = offsets
