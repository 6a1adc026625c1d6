import re

passed_re = re.compile(r"\b(\d+) passed\b")
history = context.get("conversation_history", [])
result = []
for record in history:
    output = record.get("content")
    if record.get("role") != "tool" or not isinstance(output, str):
        continue
    match = passed_re.search(output)
    if match:
        result.append({"call_id": record.get("call_id"), "passed": int(match.group(1))})
