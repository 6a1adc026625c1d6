from datetime import datetime


def parse_ts(value):
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")


history = context.get("conversation_history", [])
turn_start = None
offsets = []
for record in history:
    if record.get("role") == "user":
        turn_start = parse_ts(record["timestamp"])
        continue
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is False and turn_start is not None:
        elapsed = (parse_ts(record["timestamp"]) - turn_start).total_seconds()
        offsets.append({"call_id": record["call_id"], "seconds_into_turn": elapsed})
result = offsets
