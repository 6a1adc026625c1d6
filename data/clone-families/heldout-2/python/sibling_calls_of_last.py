node = conversation_history[-1] if conversation_history else None
siblings = []
if node is not None:
    parent = node.get("parent_call_id")
    for r in conversation_history:
        if r.get("parent_call_id") == parent:
            siblings.append(r.get("call_id"))
result = siblings
