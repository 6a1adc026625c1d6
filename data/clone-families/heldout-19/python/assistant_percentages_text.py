import re


def percentages(text):
    return re.findall(r"\b\d+(?:\.\d+)?%", text) if isinstance(text, str) else []


history = context["conversation_history"]
quoted = []
for entry in history:
    if entry.get("role") != "assistant":
        continue
    for value in percentages(entry.get("content")):
        if value not in quoted:
            quoted.append(value)
if quoted:
    result = f"The assistant quoted {len(quoted)} distinct percentages: " + ", ".join(quoted)
else:
    result = "The assistant did not quote any percentage."
