import re

HINT = re.compile(r"retry[- ]after:?\s*(\d+)", re.IGNORECASE)

history = context.get("conversation_history", [])
hints = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    match = HINT.search(outcome.get("error_message") or "")
    if match:
        hints[record.get("call_id")] = int(match.group(1))
result = hints
