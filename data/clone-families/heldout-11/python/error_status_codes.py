import re
from collections import Counter

CODE = re.compile(r"\b[45]\d\d\b")

history = context.get("conversation_history", [])
codes = Counter()
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message") or ""
    codes.update(CODE.findall(message))
result = dict(codes)
