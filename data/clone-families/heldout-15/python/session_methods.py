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
        sessions.append({"start": record.get("call_id"), "methods": set()})
    if record.get("method_name"):
        sessions[-1]["methods"].add(record["method_name"])
    previous = at
result = [{"start": s["start"], "methods": sorted(s["methods"])} for s in sessions]
