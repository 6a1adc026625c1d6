from collections import defaultdict

history = context.get("conversation_history") or []
lookup = {h["call_id"]: h for h in history if h.get("call_id")}
adopted = defaultdict(list)
for h in history:
    parent_id = h.get("parent_call_id")
    if not parent_id or parent_id not in lookup:
        continue
    need = lookup[parent_id].get("need")
    goal = h.get("goal")
    if not (isinstance(need, str) and isinstance(goal, str)):
        continue
    if goal.strip() and need.strip() == goal.strip():
        adopted[parent_id].append(h.get("call_id"))
result = dict(adopted)
