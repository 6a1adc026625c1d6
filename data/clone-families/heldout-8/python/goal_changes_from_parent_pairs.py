turns = context.get("conversation_history") or []
parents = {t["call_id"]: t for t in turns}
checked = 0
changed = []
for t in turns:
    pid = t.get("parent_call_id")
    if pid not in parents:
        continue
    checked += 1
    own_goal = t.get("goal", None)
    inherited = parents[pid].get("goal", None)
    if own_goal in (None, "") or inherited in (None, ""):
        continue
    if own_goal != inherited:
        changed.append((t["call_id"], pid))

result = {"changed": changed, "checked": checked}
