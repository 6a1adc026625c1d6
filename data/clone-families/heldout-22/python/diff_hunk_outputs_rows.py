import re

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@", re.M)
history = context.get("conversation_history", []) or []
hunks = [
    (entry.get("call_id"), len(HUNK.findall(entry["content"])))
    for entry in history
    if isinstance(entry, dict)
    and entry.get("role") == "tool"
    and isinstance(entry.get("content"), str)
    and HUNK.search(entry["content"])
]
hunks
