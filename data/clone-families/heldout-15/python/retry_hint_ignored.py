import re
from datetime import datetime

HINT = re.compile(r"retry[- ]after:?\s*(\d+)", re.IGNORECASE)


def at(record):
    return datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00"))


history = context.get("conversation_history", [])
ignored = []
for i, record in enumerate(history):
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False or not record.get("method_name"):
        continue
    match = HINT.search(outcome.get("error_message") or "")
    if not match:
        continue
    retry = next((r for r in history[i + 1:] if r.get("method_name") == record["method_name"]), None)
    if retry is not None and (at(retry) - at(record)).total_seconds() < int(match.group(1)):
        ignored.append(record.get("call_id"))
result = ignored
