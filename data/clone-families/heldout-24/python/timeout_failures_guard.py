import re

timeout_re = re.compile(r"time(?:d)? ?out", re.I)
history = context.get("conversation_history") or []
counts = {}
for record in history:
    if not isinstance(record, dict):
        continue
    outcome = record.get("outcome_summary")
    method = record.get("method_name")
    if not isinstance(outcome, dict) or not method or outcome.get("ok") is not False:
        continue
    texts = [t for t in (outcome.get("error_type"), outcome.get("error_message")) if isinstance(t, str)]
    if any(timeout_re.search(t) for t in texts):
        counts[method] = counts.get(method, 0) + 1
counts
