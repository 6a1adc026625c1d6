import re

log = context.get("conversation_history") or []
memory = context.get("memory") or {}
pattern = re.compile(r"\?\s*$")
n = 0
for item in log:
    if item.get("role") != "user":
        continue
    if pattern.search(item.get("content") or ""):
        n += 1

{"user_questions": n, "memory_keys": sorted(memory)}
