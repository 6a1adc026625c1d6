import re

opener = re.compile(r"^\s*(?:no|nope|actually|wrong|stop)\b", re.IGNORECASE)
hits = [
    entry.get("call_id")
    for entry in conversation_history
    if entry.get("role") == "user" and isinstance(entry.get("content"), str) and opener.search(entry["content"])
]
total_user = sum(1 for entry in conversation_history if entry.get("role") == "user")
f"user pushed back {len(hits)} time(s) out of {total_user} messages: {', '.join(hits) or '-'}"
