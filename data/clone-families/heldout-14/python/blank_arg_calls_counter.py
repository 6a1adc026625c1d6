import re
from collections import Counter

BLANK = re.compile(r"\s*")
records = context.get("conversation_history") or []
tally = Counter(
    r["method_name"]
    for r in records
    if r.get("method_name") and any(type(a) is str and BLANK.fullmatch(a) for a in (r.get("args") or []))
)
result = tally.most_common()
