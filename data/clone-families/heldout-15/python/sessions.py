from datetime import datetime

GAP_SECONDS = 600


def parse(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


history = context.get("conversation_history", [])
sessions = []
previous = None
for record in history:
    at = parse(record["timestamp"])
    if previous is None or (at - previous).total_seconds() > GAP_SECONDS:
        sessions.append({"start": record.get("call_id"), "records": 0, "first": at, "last": at})
    sessions[-1]["records"] += 1
    sessions[-1]["last"] = at
    previous = at
result = [
    {"start": s["start"], "records": s["records"], "seconds": (s["last"] - s["first"]).total_seconds()}
    for s in sessions
]
