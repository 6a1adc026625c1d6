def is_blank(value):
    return isinstance(value, str) and (value == "" or value.isspace())


offenders = {}
for msg in conversation_history:
    name = msg.get("method_name") or ""
    if not name:
        continue
    if any(map(is_blank, msg.get("args") or [])):
        offenders.setdefault(name, []).append(msg.get("call_id"))

"; ".join(
    f"{name}: {len(ids)} call(s) with a blank string arg ({', '.join(ids)})" for name, ids in sorted(offenders.items())
) or "No blank string arguments."
