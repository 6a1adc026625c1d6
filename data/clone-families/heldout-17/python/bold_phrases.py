import re

history = context.get("conversation_history") or []
phrases = []
for record in history:
    if record.get("role") != "assistant":
        continue
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for raw in re.findall(r"\*\*([^*\n]+)\*\*", content):
        phrase = raw.strip()
        if phrase and phrase not in phrases:
            phrases.append(phrase)
result = phrases
