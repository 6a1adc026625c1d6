import re

HEX = "[0-9a-fA-F]"
pattern = re.compile(rf"\b{HEX}{{8}}-{HEX}{{4}}-{HEX}{{4}}-{HEX}{{4}}-{HEX}{{12}}\b")
ids = []
for turn in conversation_history:
    body = turn.get("content")
    if isinstance(body, str):
        ids.extend(x.lower() for x in pattern.findall(body))
unique = list(dict.fromkeys(ids))
(f"{len(unique)} distinct UUID(s) mentioned: " + ", ".join(unique)) if unique else "No UUIDs mentioned so far."
