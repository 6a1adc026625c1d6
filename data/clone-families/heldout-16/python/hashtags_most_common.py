import re
from collections import Counter

messages = context.get("conversation_history") or []
user_texts = [m["content"] for m in messages if m.get("role") == "user" and isinstance(m.get("content"), str)]
counter = Counter(t.lower() for text in user_texts for t in re.findall(r"\B#([A-Za-z]\w*)", text))
result = [{"tag": "#" + tag, "uses": n} for tag, n in counter.most_common()]
