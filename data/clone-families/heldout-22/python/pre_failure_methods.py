from datetime import datetime

history = context.get("conversation_history", [])
seen = []
windows = []
for record in history:
    stamp = record.get("timestamp")
    if not stamp:
        continue
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if (record.get("outcome_summary") or {}).get("ok") is False:
        recent = [name for when, name in seen if 0 <= (moment - when).total_seconds() <= 60]
        windows.append({"call_id": record.get("call_id"), "methods": recent})
    if record.get("method_name"):
        seen.append((moment, record["method_name"]))
result = windows
