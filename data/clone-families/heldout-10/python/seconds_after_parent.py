from datetime import datetime

history = context.get("conversation_history", [])
stamp = {}
for rec in history:
    stamp[rec["call_id"]] = datetime.strptime(rec["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
delays = []
for rec in history:
    parent = rec.get("parent_call_id")
    if parent in stamp:
        delays.append((rec["call_id"], (stamp[rec["call_id"]] - stamp[parent]).total_seconds()))
result = delays
