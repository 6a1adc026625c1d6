from datetime import datetime


def parse_ts(value):
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")


history = context.get("conversation_history", [])
first_seen = {}
time_to_success = {}
for record in history:
    goal = record.get("goal")
    if not goal:
        continue
    stamp = parse_ts(record["timestamp"])
    first_seen.setdefault(goal, stamp)
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is True and goal not in time_to_success:
        time_to_success[goal] = (stamp - first_seen[goal]).total_seconds()
result = time_to_success
