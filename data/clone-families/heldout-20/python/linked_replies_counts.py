import re

MD_LINK = re.compile(r"\[[^\]\n]+\]\([^)\s]+\)")
history = context.get("conversation_history", [])
[
    (m.get("call_id"), len(MD_LINK.findall(m["content"])))
    for m in history
    if isinstance(m, dict)
    and m.get("role") == "assistant"
    and isinstance(m.get("content"), str)
    and MD_LINK.search(m["content"])
]
