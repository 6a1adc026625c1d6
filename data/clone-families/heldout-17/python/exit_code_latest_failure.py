import re

history = context.get("conversation_history", [])
pattern = re.compile(r"exit (?:code|status)\s*[:=]?\s*(-?\d+)", re.IGNORECASE)
latest = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message")
    if not isinstance(message, str):
        continue
    for code in {int(c) for c in pattern.findall(message)}:
        latest[code] = record.get("call_id")
result = latest
