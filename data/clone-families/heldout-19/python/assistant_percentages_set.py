import re

texts = [m["content"] for m in conversation_history if m.get("role") == "assistant" and isinstance(m.get("content"), str)]
found = {p for text in texts for p in re.findall(r"\b\d+(?:\.\d+)?%", text)}
result = sorted(found)
