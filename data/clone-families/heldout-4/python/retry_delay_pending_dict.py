from datetime import datetime

# Walk once; remember failures waiting for their retry, per method.
records = context.get("conversation_history") or []
pending = {}
found = []
for position, record in enumerate(records):
    name = record["method"]
    stamp = datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00"))
    if name in pending:
        for fail_pos, fail_stamp in pending.pop(name):
            found.append((fail_pos, name, (stamp - fail_stamp).total_seconds()))
    if not record["outcome_summary"]["ok"]:
        pending.setdefault(name, []).append((position, stamp))

found.sort()
result = [(name, secs) for _, name, secs in found]
