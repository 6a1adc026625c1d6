import json

history = context.get("conversation_history", [])
outcomes = {}
for record in history:
    method = record.get("method_name")
    summary = record.get("outcome_summary") or {}
    if not method or "ok" not in summary:
        continue
    key = (method, json.dumps(record.get("args") or []))
    outcomes.setdefault(key, set()).add(bool(summary["ok"]))
result = [
    {"method": method, "args": json.loads(args)}
    for (method, args), seen in sorted(outcomes.items())
    if seen == {True, False}
]
