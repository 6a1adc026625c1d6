import re

uuid_re = re.compile(r"\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b", re.IGNORECASE)
messages = context["conversation_history"]
found = {
    u.lower()
    for m in messages
    if isinstance(m.get("content"), str)
    for u in uuid_re.findall(m["content"])
}
result = sorted(found)
