from itertools import combinations

history = context["conversation_history"]
memory = context.get("memory") or {}


def repeats(args):
    return any(a == b for a, b in combinations(args, 2))


hits = {}
for idx, rec in enumerate(history):
    name = rec.get("method_name") or ""
    if name and repeats(rec.get("args") or []):
        hits[rec.get("call_id")] = idx

result = {
    "call_ids": list(hits),
    "positions": list(hits.values()),
    "history_size": len(history),
    "notes": memory.get("notes"),
}
