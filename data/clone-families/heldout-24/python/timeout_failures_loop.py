import re
from collections import Counter

counts = Counter()
timeout_re = re.compile(r"time(?:d)? ?out", re.I)
history = context.get("conversation_history") or []
for record in history:
    outcome = record.get("outcome_summary") or {}
    method = record.get("method_name")
    if not method or outcome.get("ok") is not False:
        continue
    hit = False
    for text in (outcome.get("error_type"), outcome.get("error_message")):
        if isinstance(text, str) and timeout_re.search(text):
            hit = True
    if hit:
        counts[method] += 1
dict(counts)
