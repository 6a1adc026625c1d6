entries = context.get("conversation_history", [])
index = {entry.get("call_id"): entry for entry in entries}
[
    {"child": entry.get("call_id"), "grandparent_call": up.get("parent_call_id")}
    for entry in entries
    if entry.get("parent_call_id")
    and (up := index.get(entry.get("parent_call_id")))
    and up.get("parent_call_id")
]
