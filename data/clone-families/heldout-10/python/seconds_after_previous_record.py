from datetime import datetime

history = context.get("conversation_history", [])
stamp = {}
for rec in history:
    stamp[rec["call_id"]] = datetime.strptime(rec["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
delays = []
for pos, rec in enumerate(history):
    parent = rec.get("parent_call_id")
    if parent in stamp and pos > 0:
        before = history[pos - 1]["call_id"]
        delays.append((rec["call_id"], (stamp[rec["call_id"]] - stamp[before]).total_seconds()))
result = delays
