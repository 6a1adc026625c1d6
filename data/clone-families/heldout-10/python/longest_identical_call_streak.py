history = context.get("conversation_history", [])
best_method, best_len = None, 0
current, run = None, 0
for rec in history:
    name = rec.get("method_name")
    if not name:
        continue
    key = (name, repr(rec.get("args") or []))
    if key == current:
        run += 1
    else:
        current, run = key, 1
    if run > best_len:
        best_method, best_len = name, run
result = {"method": best_method, "streak": best_len}
