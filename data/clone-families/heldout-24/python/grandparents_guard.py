log = context.get("conversation_history", [])
chains = []
if log:
    lookup = {item.get("call_id"): item for item in log if isinstance(item, dict)}
    for item in log:
        if not isinstance(item, dict) or not item.get("parent_call_id"):
            continue
        mother = lookup.get(item.get("parent_call_id"))
        if isinstance(mother, dict) and mother.get("parent_call_id"):
            chains.append({"call_id": item.get("call_id"), "grandparent": mother.get("parent_call_id")})
chains
