import re
from collections import Counter

SRC = re.compile(r"[\w./-]+\.(?:py|rb|js|ts):\d+")
history = context["conversation_history"]
failures = [r for r in history if isinstance(r.get("outcome_summary"), dict) and r["outcome_summary"].get("ok") is False]
hits = Counter()
for f in failures:
    hits.update(SRC.findall(f["outcome_summary"].get("error_message") or ""))
result = [{"location": loc, "mentions": n} for loc, n in hits.most_common()]
