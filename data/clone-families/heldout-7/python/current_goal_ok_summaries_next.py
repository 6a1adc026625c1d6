log = context["conversation_history"]
me = next((r for r in log if r["call_id"] == context["call_id"]), None)
target_goal = (me or {}).get("goal") or ""
result = [
    {"call_id": r["call_id"], "method": r.get("method_name"), "summary": r["outcome_summary"].get("summary")}
    for r in log
    if target_goal and r.get("goal") == target_goal and r["outcome_summary"].get("status") == "ok"
]
