query = kwargs.get("question") or (args[0] if args else None)
candidates = []
if query is not None:
    for i, rec in enumerate(conversation_history or []):
        rec_args = rec.get("args") or []
        if rec_args and rec_args[0] == query and rec.get("outcome_summary", {}).get("ok"):
            candidates.append((i, rec))
if candidates:
    _, newest = max(candidates, key=lambda pair: pair[0])
    result = newest["outcome_summary"].get("summary")
else:
    result = None
