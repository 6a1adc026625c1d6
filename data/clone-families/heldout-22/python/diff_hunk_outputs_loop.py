import re

HUNK_HEADER = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@", re.M)
records = context.get("conversation_history", [])
patched = []
for rec in records:
    output = rec.get("content")
    if rec.get("role") == "tool" and isinstance(output, str) and HUNK_HEADER.search(output):
        patched.append(rec.get("call_id"))
patched
