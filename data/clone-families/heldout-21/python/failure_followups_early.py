from datetime import datetime

entries = context.get("conversation_history", [])
hits = []
prev_fail = None
for entry in entries:
    failed = (entry.get("outcome_summary") or {}).get("ok") is False
    raw = entry.get("timestamp")
    if not raw:
        continue
    at = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    if prev_fail is not None and 0 <= (at - prev_fail).total_seconds() <= 30:
        hits.append(entry.get("call_id"))
    if failed:
        prev_fail = at
result = hits
