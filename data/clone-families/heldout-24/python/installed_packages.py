import re

installed_re = re.compile(r"^Successfully installed (.+)$", re.M)
history = context["conversation_history"]
packages = []
for record in history:
    text = record.get("content")
    if record.get("role") != "tool" or not isinstance(text, str):
        continue
    for line in installed_re.findall(text):
        for package in line.split():
            if package not in packages:
                packages.append(package)
packages
