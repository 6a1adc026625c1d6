import json

history = context.get("conversation_history", [])
outcomes = {}
arg_lists = {}
for record in history:
    method = record.get("method_name")
    summary = record.get("outcome_summary") or {}
    if not method or "ok" not in summary:
        continue
    outcomes.setdefault(method, set()).add(bool(summary["ok"]))
    arg_lists.setdefault(method, []).append(json.dumps(record.get("args") or []))
result = [
    {"method": method, "args": [json.loads(a) for a in sorted(set(arg_lists[method]))]}
    for method, seen in sorted(outcomes.items())
    if seen == {True, False}
]
