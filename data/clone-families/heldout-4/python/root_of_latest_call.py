history = context.get("conversation_history", [])

by_id = {rec["call_id"]: rec for rec in history}
root = None
hops = 0
if history:
    node = history[-1]
    while by_id.get(node["parent_call_id"]) is not None:
        node = by_id[node["parent_call_id"]]
        hops += 1
    root = node["call_id"]

result = {"root": root, "hops": hops}
