from datetime import datetime

records = context.get("conversation_history", [])
failed_at = None
rows = []
for rec in records:
    ts = rec.get("timestamp")
    if not ts:
        continue
    when = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    if failed_at is not None and 0 <= (when - failed_at).total_seconds() <= 30:
        rows.append((rec.get("call_id"), (when - failed_at).total_seconds()))
    if (rec.get("outcome_summary") or {}).get("ok") is False:
        failed_at = when
result = rows
