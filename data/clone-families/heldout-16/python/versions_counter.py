import re
from collections import Counter

semver = re.compile(r"\bv?(\d+\.\d+\.\d+)\b")
history = context["conversation_history"]
mentions = Counter()
for msg in history:
    text = msg.get("content")
    if text and isinstance(text, str):
        mentions.update(semver.findall(text))
result = [{"version": v, "mentions": n} for v, n in mentions.most_common()]
