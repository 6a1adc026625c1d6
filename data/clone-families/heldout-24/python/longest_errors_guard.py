history = context.get("conversation_history") or []
best = {}
for item in history:
    if not isinstance(item, dict):
        continue
    outcome = item.get("outcome_summary")
    if not isinstance(outcome, dict) or outcome.get("ok") is not False:
        continue
    kind, message = outcome.get("error_type"), outcome.get("error_message")
    if not isinstance(kind, str) or not kind or not isinstance(message, str):
        continue
    if kind not in best or len(message) > len(best[kind]):
        best[kind] = message
result = best
