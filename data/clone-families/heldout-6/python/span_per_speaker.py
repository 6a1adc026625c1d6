from datetime import datetime

history = context.get("conversation_history", [])


def parse_ts(value):
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")


bounds = {}
for record in history:
    who = record.get("speaker")
    ts = parse_ts(record["timestamp"])
    if who not in bounds:
        bounds[who] = [ts, ts]
    else:
        bounds[who][1] = ts
result = {who: (last - first).total_seconds() for who, (first, last) in bounds.items()}
