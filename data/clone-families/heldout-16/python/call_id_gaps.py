import re

history = context.get("conversation_history", [])
numbers = set()
for record in history:
    cid = record.get("call_id")
    if isinstance(cid, str):
        m = re.search(r"(\d+)$", cid)
        if m:
            numbers.add(int(m.group(1)))
if len(numbers) >= 2:
    result = sorted(set(range(min(numbers), max(numbers) + 1)) - numbers)
else:
    result = []
