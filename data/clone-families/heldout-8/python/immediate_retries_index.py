calls = context["conversation_history"]
retried_ids = []
for i in range(1, len(calls)):
    before, now = calls[i - 1], calls[i]
    if not now.get("method_name"):
        continue
    failed_before = (before.get("outcome_summary") or {}).get("status") != "ok"
    if failed_before and now["method_name"] == before.get("method_name"):
        retried_ids.append(now["call_id"])
result = {"immediate_retries": len(retried_ids), "retry_call_ids": retried_ids}
