import re

history = context.get("conversation_history") or []
pairs = []
for record in history:
    if record.get("role") != "tool":
        continue
    output = record.get("content")
    if isinstance(output, str) and re.search(r"\bpermission denied\b", output, re.I):
        pairs.append({"tool_call_id": record.get("call_id"), "tool_output": output})
result = pairs
