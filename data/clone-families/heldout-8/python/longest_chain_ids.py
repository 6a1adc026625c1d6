turns = context.get("conversation_history", [])
index = {t["call_id"]: t for t in turns}
best_chain = []
for t in turns:
    chain = [t["call_id"]]
    up = index.get(t.get("parent_call_id") or "")
    while up is not None:
        chain.append(up["call_id"])
        up = index.get(up.get("parent_call_id") or "")
    if len(chain) > len(best_chain):
        best_chain = chain
result = list(reversed(best_chain))
