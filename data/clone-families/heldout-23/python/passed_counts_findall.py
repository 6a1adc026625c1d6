import re

history = context.get("conversation_history", [])
passed_re = re.compile(r"\b(\d+) passed\b")
result = []
for record in history:
    output = record.get("content")
    if record.get("role") != "tool" or not isinstance(output, str):
        continue
    numbers = passed_re.findall(output)
    if numbers:
        result.append({"call_id": record.get("call_id"), "passed": int(numbers[0])})
