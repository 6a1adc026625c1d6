import re

TAIL = re.compile(r"(\d+)$")

ids = [h.get("call_id") for h in context.get("conversation_history", [])]
numbers = set()
for cid in ids:
    match = TAIL.search(cid) if isinstance(cid, str) else None
    if match is not None:
        numbers.add(int(match.group(1)))
if numbers:
    gaps = [n for n in range(min(numbers), max(numbers) + 1) if n not in numbers]
else:
    gaps = []
result = {"first": min(numbers, default=None), "last": max(numbers, default=None), "missing": gaps, "missing_count": len(gaps)}
