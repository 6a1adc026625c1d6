import re

history = context["conversation_history"]
first_reply = {}
for msg in history:
    text = msg.get("content")
    if msg.get("role") == "assistant" and isinstance(text, str):
        for match in re.finditer(r"\*\*([^*\n]+)\*\*", text):
            phrase = match.group(1).strip()
            if phrase:
                first_reply.setdefault(phrase, msg.get("call_id"))
result = {"bold_phrases": list(first_reply), "first_reply": first_reply}
