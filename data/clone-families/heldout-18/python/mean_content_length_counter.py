from collections import Counter

history = context.get("conversation_history", [])
char_sum, msg_count = Counter(), Counter()
for entry in history:
    text = entry.get("content")
    if isinstance(text, str) and entry.get("role"):
        char_sum[entry["role"]] += len(text)
        msg_count[entry["role"]] += 1

averages = {role: round(char_sum[role] / msg_count[role]) for role in msg_count}
result = dict(sorted(averages.items(), key=lambda kv: kv[1], reverse=True))
