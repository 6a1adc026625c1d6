def describe(record):
    outcome = record.get("outcome_summary", {})
    return {"call_id": record["call_id"], "method": record["method_name"], "error": outcome.get("error_type")}


conversation = context.get("conversation_history", [])
not_ok = [c for c in conversation if not c.get("outcome_summary", {}).get("ok", False)]
result = [describe(c) for c in not_ok]
