history = context.get("conversation_history", [])
by_id = {r.get("call_id"): r for r in history if r.get("call_id")}
taken_up = set()
for record in history:
    parent = by_id.get(record.get("parent_call_id"))
    if parent is None:
        continue
    goal, need = record.get("goal"), parent.get("need")
    if isinstance(goal, str) and isinstance(need, str) and goal.strip() and goal.strip() == need.strip():
        taken_up.add(parent.get("call_id"))

open_needs = []
for record in history:
    need = record.get("need")
    if isinstance(need, str) and need.strip() and record.get("call_id") not in taken_up:
        open_needs.append({"call_id": record.get("call_id"), "need": need.strip()})
result = open_needs
