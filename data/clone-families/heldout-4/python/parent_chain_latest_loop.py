history = context.get("conversation_history", [])

by_id = {rec["call_id"]: rec for rec in history}
chain = []
if history:
    node = history[-1]
    while node is not None:
        chain.append(node["call_id"])
        node = by_id.get(node["parent_call_id"])

result = chain
