import re
from collections import Counter

pattern = re.compile(r"\b\d+(?:\.\d+)?%")
counts = Counter()
for record in context.get("conversation_history") or []:
    content = record.get("content")
    if record.get("role") == "assistant" and isinstance(content, str):
        counts.update(pattern.findall(content))
dict(counts.most_common())
