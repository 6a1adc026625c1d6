def is_blank(text):
    return text is None or text.strip() == ""


records = context["conversation_history"]
failures = [r for r in records if r.get("outcome_summary") and r["outcome_summary"].get("ok") is False]
unexplained = [r["call_id"] for r in failures if is_blank(r["outcome_summary"].get("error_message"))]
result = {"silent_failures": unexplained, "failures": len(failures)}
