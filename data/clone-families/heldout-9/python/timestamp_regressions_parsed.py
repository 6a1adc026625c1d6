from datetime import datetime

def parse(stamp):
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")

log = context["conversation_history"]
out_of_order = []
for i in range(1, len(log)):
    earlier, later = parse(log[i - 1]["timestamp"]), parse(log[i]["timestamp"])
    if later < earlier:
        out_of_order.append({
            "call_id": log[i]["call_id"],
            "seconds_back": int((earlier - later).total_seconds()),
        })
result = {"regressions": out_of_order, "checked_pairs": max(len(log) - 1, 0)}
