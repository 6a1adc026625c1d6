import re

import_re = re.compile(r"^[ \t]*(?:from|import)[ \t]+([A-Za-z_][\w.]*)", re.M)
modules = []
for record in context["conversation_history"]:
    text = record.get("content")
    if not isinstance(text, str):
        continue
    for name in import_re.findall(text):
        if name not in modules:
            modules.append(name)
modules
