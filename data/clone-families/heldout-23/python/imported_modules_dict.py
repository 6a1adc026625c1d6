import re

pattern = re.compile(r"^[ \t]*(?:from|import)[ \t]+([A-Za-z_][\w.]*)", re.M)
found = []
for entry in context["conversation_history"]:
    body = entry.get("content")
    if isinstance(body, str):
        found.extend(pattern.findall(body))
list(dict.fromkeys(found))
