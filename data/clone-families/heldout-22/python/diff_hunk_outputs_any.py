import re

history = context.get("conversation_history", [])
HUNK_LINE = r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@"
hunks = [
    entry.get("call_id")
    for entry in history
    if entry.get("role") == "tool"
    and isinstance(entry.get("content"), str)
    and any(re.match(HUNK_LINE, line) for line in entry["content"].split("\n"))
]
hunks
