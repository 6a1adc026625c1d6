history = context.get("conversation_history") or []
longest = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    kind, message = outcome.get("error_type"), outcome.get("error_message")
    if outcome.get("ok") is not False or not isinstance(kind, str) or not kind or not isinstance(message, str):
        continue
    if kind not in longest or len(message) > len(longest[kind]):
        longest[kind] = message
result = longest
