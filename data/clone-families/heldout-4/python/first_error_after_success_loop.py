history = context.get("conversation_history", [])

last_ok = -1
for i, rec in enumerate(history):
    if rec["outcome_summary"]["ok"]:
        last_ok = i

first_error = None
for rec in history[last_ok + 1:]:
    if not rec["outcome_summary"]["ok"]:
        first_error = rec
        break

if first_error is None:
    result = None
else:
    result = (first_error["call_id"], first_error["outcome_summary"]["error_type"])
