from datetime import datetime

entries = context.get("conversation_history", [])
earlier = []
report = []
for entry in entries:
    ts = entry.get("timestamp")
    if not ts:
        continue
    at = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    if (entry.get("outcome_summary") or {}).get("ok") is False:
        lead_in = [method for when, method in earlier if 0 <= (at - when).total_seconds() <= 60]
        report.append({"failed_call": entry.get("call_id"), "called_before": lead_in})
    if entry.get("method_name"):
        earlier.append((at, entry["method_name"]))
result = report
