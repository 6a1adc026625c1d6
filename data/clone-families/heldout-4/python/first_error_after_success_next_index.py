calls = conversation_history or []
ok_positions = [i for i, c in enumerate(calls) if c.get("outcome_summary", {}).get("ok")]
start = ok_positions[-1] + 1 if ok_positions else 0
err = next((c for c in calls[start:] if not c["outcome_summary"]["ok"]), None)
result = {
    "call_id": err["call_id"] if err else None,
    "error_type": err["outcome_summary"].get("error_type") if err else None,
    "error_message": err["outcome_summary"].get("error_message") if err else None,
}
