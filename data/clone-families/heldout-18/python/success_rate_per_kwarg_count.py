history = context.get("conversation_history", [])
stats = {}
for record in history:
    if not record.get("method_name"):
        continue
    outcome = record.get("outcome_summary") or {}
    ok = outcome.get("ok")
    if ok not in (True, False):
        continue
    width = len(record.get("kwargs") or {})
    done, total = stats.get(width, (0, 0))
    stats[width] = (done + (1 if ok else 0), total + 1)
result = {width: round(done / total, 3) for width, (done, total) in sorted(stats.items())}
