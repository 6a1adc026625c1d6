import re

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")

history = context.get("conversation_history", [])
found = []
for record in history:
    for arg in record.get("args") or []:
        if not isinstance(arg, str):
            continue
        for address in EMAIL.findall(arg):
            if address not in found:
                found.append(address)
result = found
