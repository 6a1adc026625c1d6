import re

history = context.get("conversation_history") or []
user_text = " ".join(
    r["content"].lower() for r in history if r.get("role") == "user" and isinstance(r.get("content"), str)
)
phrases = []
for record in history:
    if record.get("role") != "assistant":
        continue
    content = record.get("content")
    if not isinstance(content, str):
        continue
    for raw in re.findall(r"\*\*([^*\n]+)\*\*", content):
        phrase = raw.strip()
        if phrase and phrase not in phrases and phrase.lower() in user_text:
            phrases.append(phrase)
result = phrases
