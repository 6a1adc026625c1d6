import re

NON_ASCII = re.compile(r"[^\x00-\x7F]")
found = [
    (m.get("call_id"), sorted(set(NON_ASCII.findall(m["content"]))))
    for m in conversation_history
    if isinstance(m.get("content"), str) and NON_ASCII.search(m["content"])
]
found
