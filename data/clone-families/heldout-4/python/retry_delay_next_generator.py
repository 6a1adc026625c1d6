from datetime import datetime

calls = context["conversation_history"]

report = []
for idx, failed in enumerate(calls):
    if failed.get("outcome_summary", {}).get("ok") is not False:
        continue
    retry = next((c for c in calls[idx + 1:] if c.get("method") == failed.get("method")), None)
    if retry is None:
        continue
    t0 = datetime.fromisoformat(failed["timestamp"].replace("Z", "+00:00"))
    t1 = datetime.fromisoformat(retry["timestamp"].replace("Z", "+00:00"))
    report.append({
        "method": failed["method"],
        "failed_call": failed.get("call_id"),
        "retry_call": retry.get("call_id"),
        "seconds_until_retry": (t1 - t0).total_seconds(),
    })

result = report
