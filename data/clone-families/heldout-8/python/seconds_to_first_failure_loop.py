from datetime import datetime


def parse(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")


history = context.get("conversation_history", [])
result = None
for rec in history:
    if not rec["outcome_summary"]["ok"]:
        result = (parse(rec["timestamp"]) - parse(history[0]["timestamp"])).total_seconds()
        break
