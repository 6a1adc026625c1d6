import re

seen_modules = []
module_re = re.compile(r"^[ \t]*(?:from|import)[ \t]+([A-Za-z_][\w.]*)", re.M)
for message in context["conversation_history"]:
    content = message.get("content")
    if not isinstance(content, str):
        continue
    for module in module_re.findall(content):
        if module not in seen_modules:
            seen_modules.append(module)
seen_modules
