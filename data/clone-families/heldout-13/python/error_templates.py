import re

history = context.get("conversation_history", [])
templates = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = (outcome.get("error_message") or "").strip()
    if not message:
        continue
    key = re.sub(r"\d+", "#", message)
    templates[key] = templates.get(key, 0) + 1
result = templates
