import re

LOCATION = re.compile(r"([\w./-]+\.(?:py|rb|js|ts)):(\d+)")

history = context.get("conversation_history", [])
locations = set()
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    for path, line in LOCATION.findall(outcome.get("error_message") or ""):
        locations.add(f"{path}:{line}")
result = sorted(locations)
