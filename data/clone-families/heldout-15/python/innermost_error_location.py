import re

LOCATION = re.compile(r"([\w./-]+\.(?:py|rb|js|ts)):(\d+)")

history = context.get("conversation_history", [])
innermost = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    frames = LOCATION.findall(outcome.get("error_message") or "")
    if frames:
        path, line = frames[-1]
        innermost[record.get("call_id")] = f"{path}:{line}"
result = innermost
