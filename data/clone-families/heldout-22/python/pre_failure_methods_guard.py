from datetime import datetime

log = context.get("conversation_history", [])
prior = []
found = []
for rec in log if isinstance(log, list) else []:
    stamp = rec.get("timestamp")
    if not isinstance(stamp, str) or not stamp:
        continue
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    outcome = rec.get("outcome_summary")
    if isinstance(outcome, dict) and outcome.get("ok") is False:
        recent = [name for when, name in prior if 0 <= (moment - when).total_seconds() <= 60]
        found.append({"call_id": rec.get("call_id"), "methods": recent})
    if rec.get("method_name"):
        prior.append((moment, rec["method_name"]))
result = found
