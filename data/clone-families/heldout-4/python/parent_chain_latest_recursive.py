def ancestry(call_id, index):
    rec = index.get(call_id)
    if rec is None:
        return []
    return [call_id] + ancestry(rec.get("parent_call_id"), index)


calls = conversation_history or []
index = {}
for c in calls:
    index[c["call_id"]] = c

if not calls:
    result = {"chain": [], "depth_of_latest": None}
else:
    result = {"chain": ancestry(calls[-1]["call_id"], index), "depth_of_latest": calls[-1].get("depth")}
