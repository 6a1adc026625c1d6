# Everything after the last success failed, so the record right after it is the answer.
records = context.get("conversation_history") or []
idx = len(records) - 1
while idx >= 0 and not records[idx]["outcome_summary"]["ok"]:
    idx -= 1
following = records[idx + 1] if idx + 1 < len(records) else None
result = None if following is None else [following["call_id"], following["outcome_summary"]["error_type"], following["method"]]
