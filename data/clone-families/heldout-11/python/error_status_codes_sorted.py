import re
from collections import Counter


def failed(rec):
    s = rec.get("outcome_summary") or {}
    return s.get("ok") is False or s.get("status") not in (None, "ok")


messages = [
    (r.get("outcome_summary") or {}).get("error_message") or ""
    for r in conversation_history
    if failed(r)
]
counts = Counter(code for msg in messages for code in re.findall(r"\b[45]\d{2}\b", msg))
result = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
