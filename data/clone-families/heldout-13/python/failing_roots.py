history = context.get("conversation_history", [])
by_id = {r.get("call_id"): r for r in history if r.get("call_id")}


def root_of(record):
    seen = set()
    current = record
    while True:
        parent = current.get("parent_call_id")
        if not parent or parent not in by_id or parent in seen:
            return current
        seen.add(parent)
        current = by_id[parent]


roots = []
for record in history:
    if (record.get("outcome_summary") or {}).get("ok") is not False:
        continue
    parent = record.get("parent_call_id")
    if not parent or parent not in by_id:
        continue
    root_id = root_of(record).get("call_id")
    if root_id not in roots:
        roots.append(root_id)
result = roots
