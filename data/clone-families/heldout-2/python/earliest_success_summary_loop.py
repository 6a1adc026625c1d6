target = args[0] if args else "search_web"
found = None
for rec in conversation_history:
    if rec.get("method_name") != target:
        continue
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok"):
        found = outcome.get("summary")
        break
result = found
