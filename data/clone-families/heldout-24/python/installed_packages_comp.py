import re

line_re = re.compile(r"^Successfully installed (.+)$", re.M)
entries = context["conversation_history"]
names = [
    name
    for entry in entries
    if entry.get("role") == "tool" and isinstance(entry.get("content"), str)
    for line in line_re.findall(entry["content"])
    for name in line.split()
]
list(dict.fromkeys(names))
