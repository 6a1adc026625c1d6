from collections import Counter

history = context.get("conversation_history", [])
chars = Counter()
for r in history:
    chars[r["speaker"]] += len(r.get("content") or "")
total = sum(chars.values())
result = {speaker: n / total for speaker, n in chars.items()} if total else {}
