records = context.get("conversation_history") or []
index = {r["call_id"]: r for r in records if r.get("call_id")}
position = {r["call_id"]: i for i, r in enumerate(records) if r.get("call_id")}
root_cache = {}


def find_root(call_id):
    if call_id in root_cache:
        return root_cache[call_id]
    chain = []
    node = call_id
    while True:
        chain.append(node)
        parent = index[node].get("parent_call_id")
        if not parent or parent not in index or parent in chain:
            break
        node = parent
    for visited in chain:
        root_cache[visited] = node
    return node


affected = set()
for r in records:
    failed = (r.get("outcome_summary") or {}).get("ok") is False
    if failed and r.get("parent_call_id") in index:
        affected.add(find_root(r["call_id"]))

result = sorted(affected, key=position.get)
