import re
from collections import defaultdict

addr_re = re.compile(r"\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b")


def valid(match):
    return all(0 <= int(octet) <= 255 for octet in match.groups())


failures = [
    r for r in context.get("conversation_history", [])
    if isinstance(r.get("outcome_summary"), dict) and r["outcome_summary"].get("ok") is False
]
where = defaultdict(set)
for f in failures:
    msg = f["outcome_summary"].get("error_message") or ""
    if not isinstance(msg, str):
        continue
    for m in addr_re.finditer(msg):
        if valid(m):
            where[m.group(0)].add(f.get("call_id"))
result = {addr: {"failures": len(ids), "call_ids": sorted(ids)} for addr, ids in where.items()}
