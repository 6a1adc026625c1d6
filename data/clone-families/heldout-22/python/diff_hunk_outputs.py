import re

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@", re.M)
history = context.get("conversation_history", [])
hunks = [
    entry.get("call_id")
    for entry in history
    if entry.get("role") == "tool"
    and isinstance(entry.get("content"), str)
    and HUNK.search(entry["content"])
]
hunks
