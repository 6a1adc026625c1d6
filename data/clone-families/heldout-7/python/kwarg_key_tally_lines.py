log = context.get("conversation_history") or []
all_keys = []
for entry in log:
    for k in (entry.get("kwargs") or {}).keys():
        if k not in all_keys:
            all_keys.append(k)

lines = [f"{k}: {sum(1 for e in log if k in (e.get('kwargs') or {}))} calls" for k in all_keys]
result = "\n".join(lines) if lines else "no keyword arguments used"
