history = context.get("conversation_history") or []
depths = []
for record in history:
    depth = record.get("depth")
    if not record.get("method_name") or not isinstance(depth, int) or isinstance(depth, bool):
        continue
    depths.append({"call_id": record.get("call_id"), "method": record.get("method_name"), "depth": depth})
result = depths
