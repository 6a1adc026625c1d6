cid = context.get("call_id")
own = next((e for e in conversation_history if e.get("call_id") == cid), None)

if own is None:
    result = "current call not found in history"
else:
    same_parent = filter(
        lambda e: e.get("parent_call_id") == own.get("parent_call_id") and e.get("call_id") != cid,
        conversation_history,
    )
    ids = [e["call_id"] for e in same_parent]
    result = f"{len(ids)} sibling(s): " + ", ".join(ids)
