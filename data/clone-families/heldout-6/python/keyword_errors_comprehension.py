needle = (kwargs.get("keyword") or "timeout").casefold()
hist = context["conversation_history"]
result = [
    {
        "call_id": h["call_id"],
        "method": h.get("method_name"),
        "error": h["outcome_summary"]["error_message"],
    }
    for h in hist
    if h.get("outcome_summary", {}).get("status") != "ok"
    and needle in (h.get("outcome_summary", {}).get("error_message") or "").casefold()
]
