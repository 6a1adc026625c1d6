def failed(rec):
    summary = rec.get("outcome_summary")
    return bool(summary) and summary.get("ok") is False


def quotes_input(rec):
    text = rec["outcome_summary"].get("error_message") or ""
    strings = [a for a in (rec.get("args") or []) if isinstance(a, str) and a != ""]
    return any(s in text for s in strings)


result = [rec["call_id"] for rec in context["conversation_history"] if failed(rec) and quotes_input(rec)]
