from datetime import datetime


def parse(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


gaps = []
previous = None
for record in conversation_history:
    if record.get("role") != "assistant" or not record.get("timestamp"):
        continue
    moment = parse(record["timestamp"])
    if previous is not None:
        gaps.append((moment - previous).total_seconds())
    previous = moment
result = gaps
