history = context.get("conversation_history", [])

last_ok = -1
for i, rec in enumerate(history):
    if rec["outcome_summary"]["ok"]:
        last_ok = i

last_error = None
for rec in history[:max(last_ok, 0)]:
    if not rec["outcome_summary"]["ok"]:
        last_error = rec

if last_error is None:
    result = None
else:
    result = (last_error["call_id"], last_error["outcome_summary"]["error_type"])
