def turn_owner(history):
    owner, mapping = None, {}
    for msg in history:
        if msg.get("role") == "user":
            owner = msg.get("call_id")
        mapping[msg.get("call_id")] = owner
    return mapping


owners = turn_owner(conversation_history)
links = [
    (m.get("call_id"), m.get("parent_call_id"))
    for m in conversation_history
    if m.get("parent_call_id") in owners and owners[m["parent_call_id"]] != owners[m.get("call_id")]
]
"; ".join(f"{child} <- {parent} (other turn)" for child, parent in links) or "All parent links stay within their turn."
