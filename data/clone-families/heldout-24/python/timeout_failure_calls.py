import re

timeout_re = re.compile(r"time(?:d)? ?out", re.I)
history = context.get("conversation_history") or []
calls = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    method = record.get("method_name")
    if not method or outcome.get("ok") is not False:
        continue
    texts = [t for t in (outcome.get("error_type"), outcome.get("error_message")) if isinstance(t, str)]
    if any(timeout_re.search(t) for t in texts):
        calls.append({"call_id": record.get("call_id"), "method": method})
calls
