verbose = bool(kwargs.get("verbose"))
lookup = dict((e["call_id"], e) for e in conversation_history if "call_id" in e)
out = []
cur_id = conversation_history[-1].get("call_id") if conversation_history else None
for _ in range(len(lookup) + 1):
    rec = lookup.get(cur_id)
    if rec is None:
        break
    out.append({"call_id": cur_id, "depth": rec.get("depth")} if verbose else cur_id)
    cur_id = rec.get("parent_call_id")
result = out
