history = context.get("conversation_history", [])
by_id = {r.get("call_id"): r for r in history if r.get("call_id")}


def parent_of(record):
    parent = record.get("parent_call_id")
    if not parent or parent not in by_id:
        return None
    return by_id[parent]


parents = []
for record in history:
    if (record.get("outcome_summary") or {}).get("ok") is not False:
        continue
    parent = parent_of(record)
    if parent is None:
        continue
    parent_id = parent.get("call_id")
    if parent_id not in parents:
        parents.append(parent_id)
result = parents
