from collections import defaultdict

history = context.get("conversation_history", [])
ids = {h.get("call_id") for h in history if h.get("call_id")}
children = defaultdict(list)
roots = []
for h in history:
    parent = h.get("parent_call_id")
    if parent and parent in ids:
        children[parent].append(h)
    else:
        roots.append(h)


def failed(h):
    return (h.get("outcome_summary") or {}).get("ok") is False


failing_below = {}
for root in roots:
    stack = list(children[root.get("call_id")])
    hits = 0
    while stack:
        node = stack.pop()
        if failed(node):
            hits += 1
        stack.extend(children[node.get("call_id")])
    if hits:
        failing_below[root.get("call_id")] = hits

result = failing_below
