log = context["conversation_history"]
parents = {e["call_id"]: e["parent_call_id"] for e in log}
methods = {e["call_id"]: e["method"] for e in log}

path = []
current = log[-1]["call_id"] if log else None
while current in parents:
    path.insert(0, current)
    current = parents[current]

result = " > ".join(f"{cid}({methods[cid]})" for cid in path) or "empty history"
