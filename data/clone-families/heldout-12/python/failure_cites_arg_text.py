log = context.get("conversation_history") or []
lines = []
for item in log:
    info = item.get("outcome_summary")
    if not info or info.get("ok"):
        continue
    err = info.get("error_message")
    if not isinstance(err, str):
        continue
    echoed = [arg for arg in (item.get("args") or []) if type(arg) is str and arg and err.find(arg) != -1]
    if echoed:
        lines.append(f"{item.get('call_id')}: {item.get('method_name')} failed mentioning {echoed[0]!r}")
result = "\n".join(lines) if lines else "no failure message repeats its own input"
