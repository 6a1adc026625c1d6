import re

installed_re = re.compile(r"^Successfully installed (.+)$", re.M)
history = context["conversation_history"]
packages = []
for record in history:
    if not isinstance(record, dict):
        continue
    text = record.get("content")
    if record.get("role") != "tool" or not isinstance(text, str) or not text:
        continue
    for match in installed_re.finditer(text):
        for package in match.group(1).split():
            if package not in packages:
                packages.append(package)
packages
