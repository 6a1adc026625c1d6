last_index = {}
for idx, record in enumerate(conversation_history):
    if record.get("method_name"):
        last_index[record["method_name"]] = idx

never_retried = [
    record
    for idx, record in enumerate(conversation_history)
    if record.get("method_name")
    and (record.get("outcome_summary") or {}).get("ok") is False
    and last_index[record["method_name"]] == idx
]
lines = [f"- {r['call_id']} {r['method_name']}: {(r.get('outcome_summary') or {}).get('error_type') or 'error'}" for r in never_retried]
result = "Failures never retried:\n" + "\n".join(lines) if lines else "every failure was retried"
