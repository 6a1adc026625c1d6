history = context.get("conversation_history", [])
failed_keys = {}
ok_calls = 0
for record in history:
    outcome = record.get("outcome_summary") or {}
    options = record.get("kwargs") or {}
    if outcome.get("ok") is True:
        ok_calls += 1
    elif outcome.get("ok") is False:
        for key in options:
            failed_keys[key] = failed_keys.get(key, 0) + 1
result = dict(sorted(failed_keys.items()))
