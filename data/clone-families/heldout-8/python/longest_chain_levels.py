hist = context.get("conversation_history") or []
known = {h["call_id"] for h in hist}
kids = {}
for h in hist:
    kids.setdefault(h.get("parent_call_id"), []).append(h["call_id"])

frontier = [h["call_id"] for h in hist if h.get("parent_call_id") not in known]
levels = 0
while frontier:
    levels += 1
    frontier = [c for node in frontier for c in kids.get(node, [])]
result = {"levels": levels, "records": len(hist)}
