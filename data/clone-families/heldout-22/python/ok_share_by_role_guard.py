log = context.get("conversation_history") or []
counts, good = {}, {}
for item in log:
    if not isinstance(item, dict):
        continue
    outcome = item.get("outcome_summary")
    verdict = outcome.get("ok") if isinstance(outcome, dict) else None
    kind = item.get("role")
    if kind and isinstance(verdict, bool):
        counts[kind] = counts.get(kind, 0) + 1
        good[kind] = good.get(kind, 0) + (1 if verdict else 0)
result = {kind: round(good[kind] / counts[kind], 2) for kind in counts if counts[kind]}
