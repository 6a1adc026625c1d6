parent = context.get("call_id")
child_methods = []
for rec in conversation_history:
    if rec.get("parent_call_id") == parent:
        child_methods.append(rec.get("method_name"))
result = child_methods
