from collections import deque

records = context["conversation_history"]
root = context["call_id"]

children = {}
for rec in records:
    children.setdefault(rec.get("parent_call_id"), []).append(rec["call_id"])

found = set()
queue = deque([root] if root else [])
while queue:
    node = queue.popleft()
    for child in children.get(node, []):
        if child not in found:
            found.add(child)
            queue.append(child)

order = [rec["call_id"] for rec in records if rec["call_id"] in found]
result = {"call_id": root, "descendants": order, "count": len(order)}
