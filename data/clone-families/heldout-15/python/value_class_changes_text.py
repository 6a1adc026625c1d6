previous = {}
lines = []
for entry in conversation_history:
    name = entry.get("method_name") or ""
    summary = entry.get("outcome_summary") or {}
    if name == "" or not summary.get("ok"):
        continue
    kind = summary.get("value_class") or None
    if name in previous:
        if previous[name] != kind:
            lines.append(f"{name}: returned {kind or 'unknown'} at {entry.get('call_id')} (was {previous[name] or 'unknown'})")
    previous[name] = kind

"\n".join(lines) if lines else "Every method kept returning the same kind of value."
