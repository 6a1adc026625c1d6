question = kwargs.get("question") or (args[0] if args else None)
times = 0
for rec in reversed(conversation_history):
    rec_args = rec.get("args") or []
    if rec_args and rec_args[0] == question and rec.get("outcome_summary", {}).get("ok"):
        times += 1
result = times
