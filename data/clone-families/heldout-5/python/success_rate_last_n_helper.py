def succeeded(record):
    summary = record.get("outcome_summary") or {}
    return summary.get("ok") is True and summary.get("error_type") is None


hist = context["conversation_history"]
span = kwargs.get("n", 10)
start = max(0, len(hist) - span)
checked = list(range(start, len(hist)))

rate = sum(succeeded(hist[i]) for i in checked) / len(checked) if checked else None
result = (rate, [hist[i]["call_id"] for i in checked if not succeeded(hist[i])])
