from datetime import datetime


def parse_ts(value):
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")


history = context.get("conversation_history", [])
history_start = parse_ts(history[0]["timestamp"]) if history else None
time_to_success = {}
for record in history:
    goal = record.get("goal")
    if not goal:
        continue
    stamp = parse_ts(record["timestamp"])
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is True and goal not in time_to_success:
        time_to_success[goal] = (stamp - history_start).total_seconds()
result = time_to_success
