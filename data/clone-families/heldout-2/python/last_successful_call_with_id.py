method = args[0] if args else "search_web"
successes = [
    r
    for r in context["conversation_history"]
    if r.get("method_name") == method and (r.get("outcome_summary") or {}).get("ok") is True
]
if successes:
    last = successes[-1]
    result = {"call_id": last.get("call_id"), "summary": last["outcome_summary"].get("summary")}
else:
    result = {"call_id": None, "summary": None}
