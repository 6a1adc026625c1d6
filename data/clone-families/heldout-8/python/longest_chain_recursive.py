from functools import lru_cache

by_id = {m["call_id"]: m for m in conversation_history}


@lru_cache(maxsize=None)
def chain(call_id):
    parent = by_id[call_id].get("parent_call_id")
    if parent in by_id:
        return chain(parent) + (call_id,)
    return (call_id,)


chains = [chain(m["call_id"]) for m in conversation_history]
top = max(chains, key=len, default=())
result = f"longest chain: {len(top)} calls ({' -> '.join(top)})"
