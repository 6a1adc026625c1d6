wanted = kwargs.get("method")
failures = [
    h for h in conversation_history
    if h.get("method_name") == wanted and h.get("outcome_summary", {}).get("ok") is False
]
last_failure = failures[-1] if failures else None
last_failure["outcome_summary"].get("error_message") if last_failure else None
