import re

BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
emphasised = {
    m.strip()
    for r in conversation_history
    if r.get("role") == "assistant" and isinstance(r.get("content"), str)
    for m in BOLD.findall(r["content"])
}
emphasised.discard("")
sorted(emphasised)
