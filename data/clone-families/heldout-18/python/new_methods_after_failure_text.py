def failed(rec):
    return (rec.get("outcome_summary") or {}).get("ok") is False


idx = next((n for n, rec in enumerate(conversation_history) if failed(rec)), None)
if idx is None:
    message = "Nothing has failed yet."
else:
    tried_before = {rec.get("method_name") for rec in conversation_history[: idx + 1] if rec.get("method_name")}
    fresh = []
    for rec in conversation_history[idx + 1:]:
        name = rec.get("method_name")
        if name and name not in tried_before and name not in fresh:
            fresh.append(name)
    message = (
        f"Methods first tried after the first failure ({conversation_history[idx].get('call_id')}): " + ", ".join(fresh)
        if fresh
        else "No new method was tried after the first failure."
    )
message
