def failed(record):
    summary = record.get("outcome_summary") or {}
    return not summary.get("ok", False)


previous = None
retries = []
for entry in context.get("conversation_history", []):
    name = entry.get("method_name") or ""
    if previous is not None and name and name == (previous.get("method_name") or "") and failed(previous):
        retries.append({"method": name, "failed_call": previous["call_id"], "retry_call": entry["call_id"]})
    previous = entry

{"count": len(retries), "retries": retries}
