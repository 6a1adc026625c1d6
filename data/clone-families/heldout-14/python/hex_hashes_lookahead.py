import re

SHA = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
records = context.get("conversation_history") or []
found = set()
for r in records:
    found.update(SHA.findall(r.get("content") or ""))
result = {"hashes": sorted(found), "count": len(found)}
