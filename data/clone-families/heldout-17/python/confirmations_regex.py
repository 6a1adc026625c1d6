import re

SHORT_YES = re.compile(r"\s*(?:yes|y|yep|yeah|ok|okay|sure|go ahead|do it)[.!]*\s*", re.IGNORECASE)

history = context.get("conversation_history", [])
result = [
    r.get("call_id")
    for r in history
    if r.get("role") == "user" and isinstance(r.get("content"), str) and SHORT_YES.fullmatch(r["content"])
]
