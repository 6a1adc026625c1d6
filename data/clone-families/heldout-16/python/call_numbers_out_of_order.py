import re

history = context.get("conversation_history", [])
result = []
highest = None
for record in history:
    cid = record.get("call_id")
    if isinstance(cid, str):
        m = re.search(r"(\d+)$", cid)
        if m:
            number = int(m.group(1))
            if highest is not None and number < highest:
                result.append(cid)
            highest = number if highest is None else max(highest, number)
