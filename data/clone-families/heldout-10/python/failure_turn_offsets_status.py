from datetime import datetime, timezone

records = context.get("conversation_history") or []
FMT = "%Y-%m-%dT%H:%M:%SZ"
last_user_time = None
pairs = []
orphaned = 0
for rec in records:
    stamp = datetime.strptime(rec["timestamp"], FMT).replace(tzinfo=timezone.utc)
    status = (rec.get("outcome_summary") or {}).get("status", "ok")
    if rec.get("role") == "user":
        last_user_time = stamp
    elif status not in (None, "ok"):
        if last_user_time is None:
            orphaned += 1
        else:
            pairs.append((rec["call_id"], int((stamp - last_user_time).total_seconds())))
{"failures_in_turns": pairs, "failures_before_any_user_message": orphaned}
