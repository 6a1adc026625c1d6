import re

history = context.get("conversation_history", [])
pattern = re.compile(r"exit (?:code|status)\s*[:=]?\s*(-?\d+)", re.IGNORECASE)
counts = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message")
    if not isinstance(message, str):
        continue
    for code in {int(c) for c in pattern.findall(message)}:
        counts[code] = counts.get(code, 0) + 1
result = counts
