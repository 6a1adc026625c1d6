from datetime import datetime

log = context["conversation_history"]
report = {}
asked_at = None
for entry in log:
    when = datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00"))
    if entry.get("speaker") == "user":
        asked_at = when
    elif asked_at and (entry.get("outcome_summary") or {}).get("ok") is False:
        report[entry["call_id"]] = {
            "method": entry.get("method_name"),
            "minutes_after_user": round((when - asked_at).total_seconds() / 60, 2),
        }
result = report
