history = context.get("conversation_history", [])
failed_keys = set()
ok_keys = set()
for record in history:
    outcome = record.get("outcome_summary") or {}
    options = record.get("kwargs") or {}
    if outcome.get("ok") is True:
        ok_keys.update(options)
    elif outcome.get("ok") is False:
        failed_keys.update(options)
result = sorted(failed_keys - ok_keys)
