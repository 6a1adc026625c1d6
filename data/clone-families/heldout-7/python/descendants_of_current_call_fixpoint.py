history = context.get("conversation_history") or []
target = context.get("call_id")

inside = {target} if target else set()
changed = True
while changed:
    changed = False
    for item in history:
        if item.get("parent_call_id") in inside and item.get("call_id") not in inside:
            inside.add(item.get("call_id"))
            changed = True

result = [
    {"call_id": item["call_id"], "method": item.get("method_name"), "depth": item.get("depth")}
    for item in history
    if item.get("call_id") in inside and item.get("call_id") != target
]
