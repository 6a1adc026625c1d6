history = context.get("conversation_history") or []
deep = []
for record in history:
    if not isinstance(record, dict):
        continue
    depth = record.get("depth")
    if not record.get("method_name") or not isinstance(depth, int) or isinstance(depth, bool):
        continue
    if depth > 2:
        deep.append({"call_id": record.get("call_id"), "method": record.get("method_name")})
result = deep
