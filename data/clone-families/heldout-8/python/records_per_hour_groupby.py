import itertools
from datetime import datetime


def hour_of(entry):
    stamp = datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00"))
    return stamp.replace(minute=0, second=0, microsecond=0).isoformat()


ordered = sorted(conversation_history, key=hour_of)
result = []
for hour, group in itertools.groupby(ordered, key=hour_of):
    group = list(group)
    result.append({"hour": hour, "count": len(group), "first_call": group[0]["call_id"]})
