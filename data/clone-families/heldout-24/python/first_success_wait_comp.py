from datetime import datetime

def parse(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))

calls = [(r.get("method_name"), parse(r["timestamp"]), (r.get("outcome_summary") or {}).get("ok") is True)
         for r in conversation_history if r.get("method_name") and r.get("timestamp")]
opened = {}
result = {}
for name, moment, succeeded in calls:
    opened.setdefault(name, moment)
    if succeeded and name not in result:
        result[name] = (moment - opened[name]).total_seconds()
