target = kwargs.get("method")
history = context.get("conversation_history", [])

latest = None
for record in history:
    if record.get("method_name") != target:
        continue
    outcome = record.get("outcome_summary") or {}
    if not outcome.get("ok", True):
        latest = record

if latest is None:
    result = {"method": target, "error_message": None}
else:
    result = {
        "method": target,
        "error_message": latest["outcome_summary"]["error_message"],
        "error_type": latest["outcome_summary"]["error_type"],
    }
