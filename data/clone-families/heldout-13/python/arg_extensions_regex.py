import re
from collections import Counter

FILE_NAME = re.compile(r"(?:\S*/)?[^\s/]*?[^\s/]\.([A-Za-z0-9]+)")

records = context.get("conversation_history") or []
extensions = Counter()
for r in records:
    if not r.get("method_name"):
        continue
    for a in r.get("args") or []:
        m = FILE_NAME.fullmatch(a) if isinstance(a, str) else None
        if m:
            extensions[m.group(1).lower()] += 1

result = sorted(extensions.items(), key=lambda kv: (-kv[1], kv[0]))
