import re

history = context.get("conversation_history", [])
LINK = re.compile(r"\[[^\]\n]+\]\([^)\s]+\)")
with_links = filter(
    lambda m: m.get("role") == "assistant" and isinstance(m.get("content"), str) and LINK.search(m["content"]),
    history,
)
[f"reply {m.get('call_id')} contains a markdown link" for m in with_links]
