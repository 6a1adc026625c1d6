question = kwargs.get("question") or (args[0] if args else None)
previous = None
for rec in reversed(conversation_history):
    rec_args = rec.get("args") or []
    if rec_args and rec_args[0] == question and rec.get("outcome_summary", {}).get("ok"):
        previous = rec["outcome_summary"].get("summary")
        break
result = previous
