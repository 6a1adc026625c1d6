import re

found = set()
for item in conversation_history:
    cid = item.get("call_id")
    m = re.match(r".*?(\d+)\Z", cid) if isinstance(cid, str) else None
    if m:
        found.add(int(m.group(1)))

holes = [n for n in range(min(found), max(found) + 1) if n not in found] if len(found) > 1 else []
(
    f"Call numbers {min(found)}..{max(found)}: {len(holes)} missing ({', '.join(map(str, holes)) or 'none'})"
    if len(found) > 1
    else "Not enough numbered call ids to look for gaps."
)
