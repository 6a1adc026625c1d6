import re
from collections import Counter

IPV4 = re.compile(r"\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b")

history = context["conversation_history"]
hits = Counter()
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message")
    if not isinstance(message, str):
        continue
    found = set()
    for parts in IPV4.findall(message):
        if all(int(p) <= 255 for p in parts):
            found.add(".".join(parts))
    hits.update(found)
result = dict(hits)
