log = context["conversation_history"] or []
seen = set()
picked = []
k = len(log) - 1
while k >= 0 and len(picked) < 3:
    name = log[k].get("method")
    if name not in seen:
        seen.add(name)
        picked.append(name)
    k -= 1
result = " -> ".join(picked) if picked else "(no calls yet)"
