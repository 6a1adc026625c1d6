history = context["conversation_history"]
nodes = {item.get("call_id"): item for item in history}


def ancestry(item):
    chain = []
    parent = item.get("parent_call_id")
    while parent and parent in nodes and parent not in chain:
        chain.append(parent)
        parent = nodes[parent].get("parent_call_id")
    return chain


failures_by_root = {}
for item in history:
    outcome = item.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    chain = ancestry(item)
    if chain:
        failures_by_root.setdefault(chain[-1], []).append(item.get("call_id"))

result = {"roots": list(failures_by_root), "failures_by_root": failures_by_root}
