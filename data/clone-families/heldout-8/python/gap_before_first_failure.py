from datetime import datetime


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")


history = context.get("conversation_history", [])
result = None
for i, rec in enumerate(history):
    if not rec["outcome_summary"]["ok"]:
        if i > 0:
            result = (parse(rec["timestamp"]) - parse(history[i - 1]["timestamp"])).total_seconds()
        break
