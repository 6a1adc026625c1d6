lines = []
for entry in conversation_history:
    summary = entry.get("outcome_summary")
    if not summary:
        continue
    lines.append(f"{entry.get('call_id')}: {summary.get('status', 'n/a')}")
result = "\n".join(lines) if lines else "no completed calls"
