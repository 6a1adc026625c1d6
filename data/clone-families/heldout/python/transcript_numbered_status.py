history = context.get("conversation_history") or []
if not history:
    result = "(no history)"
else:
    rows = []
    for i, entry in enumerate(history):
        status = entry.get("outcome_summary", {}).get("status", "?")
        rows.append(f"{i + 1}. [{entry.get('timestamp')}] {entry.get('speaker')}: {entry.get('method_name')} -> {status}")
    result = "\n".join(rows)
