rows = []
for entry in conversation_history:
    outcome = entry.get("outcome_summary") or {}
    if outcome.get("status", "ok") == "ok":
        continue
    msg = outcome.get("error_message")
    if msg and msg.strip():
        continue
    rows.append({
        "call_id": entry["call_id"],
        "method": entry.get("method_name"),
        "error_type": outcome.get("error_type"),
    })
result = rows
