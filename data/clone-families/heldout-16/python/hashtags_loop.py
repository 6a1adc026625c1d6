import re

hashtag = re.compile(r"(?<!\w)#([A-Za-z]\w*)")
history = context["conversation_history"]
counts = {}
for turn in history:
    if turn.get("role") == "user" and turn.get("content"):
        body = turn["content"]
        if not isinstance(body, str):
            continue
        for match in hashtag.finditer(body):
            key = match.group(1).lower()
            counts[key] = counts.get(key, 0) + 1
result = dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
