records = context.get("conversation_history", [])
seen_turn = {}
turn_id = None
out = []
for r in records:
    cid = r.get("call_id")
    if r.get("role") == "user":
        turn_id = cid
    seen_turn[cid] = turn_id
    p = r.get("parent_call_id")
    if p and p in seen_turn and seen_turn[p] != turn_id:
        out.append(cid)
result = {"cross_turn_links": out, "n": len(out)}
