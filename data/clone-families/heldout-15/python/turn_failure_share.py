history = context.get("conversation_history", [])
counts = {}
turn = None
for record in history:
    if record.get("role") == "user":
        turn = record.get("call_id")
    if turn is None:
        continue
    ok = (record.get("outcome_summary") or {}).get("ok")
    if ok is None:
        continue
    failed, judged = counts.get(turn, (0, 0))
    counts[turn] = (failed + (ok is False), judged + 1)
result = {t: f / n for t, (f, n) in counts.items()}
