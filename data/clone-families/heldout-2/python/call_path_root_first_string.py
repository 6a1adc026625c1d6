hist = conversation_history or []
path = []
current = hist[-1] if hist else None
visited = set()
while current and current.get("call_id") not in visited:
    visited.add(current.get("call_id"))
    path.append(str(current.get("call_id")))
    pid = current.get("parent_call_id")
    current = next((h for h in hist if h.get("call_id") == pid), None) if pid else None
result = " > ".join(reversed(path)) if path else "(empty)"
