import re
from collections import Counter

user_msgs = (r.get("content") for r in conversation_history if r.get("role") == "user")
seen = Counter()
for msg in user_msgs:
    if isinstance(msg, str) and "#" in msg:
        seen.update(map(str.lower, re.findall(r"(?<!\w)#([A-Za-z]\w*)", msg)))
", ".join(f"#{tag} x{n}" for tag, n in seen.most_common()) or "The user used no hashtags."
