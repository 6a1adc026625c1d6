by_id = {r.get("call_id"): r for r in conversation_history}
chain = []
node = conversation_history[-1] if conversation_history else None
while node is not None:
    chain.append(node.get("call_id"))
    parent = node.get("parent_call_id")
    if parent is None or parent in chain:
        break
    node = by_id.get(parent)
result = chain
