import json

lines = []
for entry in conversation_history:
    if not entry.get("method_name"):
        continue
    args = entry.get("args")
    if not isinstance(args, list) or len(args) < 2:
        continue
    keys = [json.dumps(a, sort_keys=True, default=str) for a in args]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        lines.append(f"{entry.get('call_id')} {entry['method_name']}: repeated {', '.join(repeated)}")

"\n".join(lines) if lines else "No call passed the same argument twice."
