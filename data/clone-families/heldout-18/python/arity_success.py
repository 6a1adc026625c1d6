history = context.get("conversation_history", [])
stats = {}
for record in history:
    if not record.get("method_name"):
        continue
    outcome = record.get("outcome_summary") or {}
    ok = outcome.get("ok")
    if ok not in (True, False):
        continue
    arity = len(record.get("args") or [])
    done, total = stats.get(arity, (0, 0))
    stats[arity] = (done + (1 if ok else 0), total + 1)
result = {arity: round(done / total, 3) for arity, (done, total) in sorted(stats.items())}
