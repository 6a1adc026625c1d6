history = context.get("conversation_history", [])
last_ok = {}
for record in history:
    need = record.get("need")
    if not need:
        continue
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is True:
        last_ok[need] = True
    elif outcome.get("ok") is False:
        last_ok[need] = False
result = sorted(need for need, good in last_ok.items() if not good)
