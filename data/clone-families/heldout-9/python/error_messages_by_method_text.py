def failed(record):
    return (record.get("outcome_summary") or {}).get("ok") is False

seen = []
for record in conversation_history:
    message = (record.get("outcome_summary") or {}).get("error_message")
    if failed(record) and record.get("method_name") and message:
        pair = (record["method_name"], message)
        if pair not in seen:
            seen.append(pair)

methods = list(dict.fromkeys(m for m, _ in seen))
result = "\n".join(
    f"{m}: " + " | ".join(msg for name, msg in seen if name == m) for m in methods
) or "no error messages"
