records = context["conversation_history"]
chain_len = {}
deepest_call = None
best = 0
for rec in records:
    # parents are logged before their children
    n = chain_len.get(rec.get("parent_call_id"), 0) + 1
    chain_len[rec["call_id"]] = n
    if n > best:
        best, deepest_call = n, rec["call_id"]
result = {"length": best, "deepest_call": deepest_call}
