import re


def bold_spans(text):
    return [s.strip() for s in re.findall(r"\*\*([^*\n]+)\*\*", text) if s.strip()]


seen = []
for turn in context.get("conversation_history", []):
    if turn.get("role") == "assistant" and isinstance(turn.get("content"), str):
        seen.extend(p for p in bold_spans(turn["content"]) if p not in seen)

if seen:
    result = "Phrases I put in bold:\n" + "\n".join(f"- {p}" for p in seen)
else:
    result = "I have not bolded anything in my replies."
