from datetime import datetime, timedelta

history = context.get("conversation_history", [])
MINUTE = timedelta(seconds=60)
seen = []
windows = []
for record in history:
    stamp = record.get("timestamp")
    if not stamp:
        continue
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if (record.get("outcome_summary") or {}).get("ok") is False:
        recent = [name for when, name in seen if timedelta(0) <= moment - when <= MINUTE]
        windows.append({"failure": record.get("call_id"), "at": stamp, "methods": recent})
    if record.get("method_name"):
        seen.append((moment, record["method_name"]))
result = windows
