deep = []
history = context.get("conversation_history") or []
for record in history:
    depth = record.get("depth")
    if not record.get("method_name") or not isinstance(depth, int) or isinstance(depth, bool):
        continue
    if depth > 2:
        deep.append({"id": record.get("call_id"), "name": record.get("method_name"), "level": depth})
result = deep
