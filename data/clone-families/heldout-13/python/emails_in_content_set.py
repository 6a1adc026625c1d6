import re

pattern = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"
records = context.get("conversation_history") or []
addresses = {
    match
    for r in records
    if isinstance(r.get("content"), str)
    for match in re.findall(pattern, r["content"])
}
result = {"emails": sorted(addresses), "count": len(addresses)}
