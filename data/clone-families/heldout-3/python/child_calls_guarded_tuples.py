if not conversation_history:
    result = []
else:
    parent_id = context.get("call_id")
    result = []
    for entry in conversation_history:
        pc = entry.get("parent_call_id")
        if pc is None or pc != parent_id:
            continue
        result.append((entry.get("call_id"), entry.get("method_name")))
