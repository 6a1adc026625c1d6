from datetime import datetime, timedelta

def to_dt(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))

records = context["conversation_history"]
timed = []
for rec in records:
    if rec.get("timestamp"):
        timed.append(rec)
result = []
for msg in timed:
    if msg.get("role") != "user":
        continue
    begin = to_dt(msg["timestamp"])
    outputs = []
    for rec in timed:
        if rec.get("role") == "tool" and begin <= to_dt(rec["timestamp"]) <= begin + timedelta(seconds=60):
            outputs.append(rec.get("call_id"))
    result.append({"call_id": msg.get("call_id"), "tool_ids": outputs})
