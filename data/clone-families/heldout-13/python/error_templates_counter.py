import re
from collections import Counter

DIGITS = re.compile(r"[0-9]+")

records = context.get("conversation_history") or []
failed_messages = [
    (r.get("outcome_summary") or {}).get("error_message")
    for r in records
    if (r.get("outcome_summary") or {}).get("ok") is False
]
shapes = Counter(DIGITS.sub("#", m.strip()) for m in failed_messages if m and m.strip())
result = [{"template": t, "count": n} for t, n in shapes.most_common()]
