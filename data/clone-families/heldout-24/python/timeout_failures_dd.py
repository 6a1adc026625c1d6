import re
from collections import defaultdict

pattern = re.compile(r"time(?:d)? ?out", re.I)
records = context.get("conversation_history") or []
per_method = defaultdict(int)
for rec in records:
    summary = rec.get("outcome_summary") or {}
    name = rec.get("method_name")
    if not name or summary.get("ok") is not False:
        continue
    fields = [f for f in (summary.get("error_type"), summary.get("error_message")) if isinstance(f, str)]
    if any(pattern.search(f) for f in fields):
        per_method[name] += 1
dict(per_method)
