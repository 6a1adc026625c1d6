import re
from collections import Counter

handle_re = re.compile(r"(?<!\w)@(\w+)")
per_speaker = {}
for entry in context["conversation_history"]:
    speaker = entry.get("speaker") or ""
    body = entry.get("content")
    if speaker == "" or not isinstance(body, str):
        continue
    found = handle_re.findall(body)
    if found:
        per_speaker.setdefault(speaker, Counter()).update(found)
result = [
    {"speaker": s, "handles": sorted(c), "mentions": sum(c.values())}
    for s, c in per_speaker.items()
]
