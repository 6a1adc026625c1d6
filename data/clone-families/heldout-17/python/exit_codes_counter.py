import re
from collections import Counter

records = context.get("conversation_history") or []
EXIT_RE = re.compile(r"(?i)exit (?:code|status)\s*[:=]?\s*(-?\d+)")


def failed_message(rec):
    summary = rec.get("outcome_summary") or {}
    if summary.get("ok") is False and isinstance(summary.get("error_message"), str):
        return summary["error_message"]
    return None


tally = Counter()
for rec in records:
    msg = failed_message(rec)
    if msg:
        tally.update({int(code) for code in EXIT_RE.findall(msg)})
result = tally.most_common()
