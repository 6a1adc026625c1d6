import re
from collections import defaultdict

ADDRESS_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")

mentioned_by = defaultdict(set)
for entry in context["conversation_history"]:
    text = entry.get("content") or ""
    if not isinstance(text, str):
        continue
    for m in ADDRESS_RE.finditer(text):
        mentioned_by[m.group(0)].add(entry.get("role") or "unknown")

result = {addr: sorted(roles) for addr, roles in mentioned_by.items()}
