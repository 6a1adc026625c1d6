import calendar
import time

epoch = {}
for item in conversation_history:
    epoch[item["call_id"]] = calendar.timegm(time.strptime(item["timestamp"], "%Y-%m-%dT%H:%M:%SZ"))

minutes = [
    {"call_id": item["call_id"], "minutes_after_parent": round((epoch[item["call_id"]] - epoch[item["parent_call_id"]]) / 60, 1)}
    for item in conversation_history
    if item.get("parent_call_id") and item["parent_call_id"] in epoch
]
average = round(sum(m["minutes_after_parent"] for m in minutes) / len(minutes), 1) if minutes else None
result = {"children": minutes, "average_minutes": average}
