from collections import Counter

records = context.get("conversation_history") or []


def has_duplicate(values):
    counts = Counter(repr(v) for v in values)
    return any(n > 1 for n in counts.values())


dupes = [
    {"call_id": r.get("call_id"), "method": r["method_name"], "args": r.get("args")}
    for r in records
    if r.get("method_name") and has_duplicate(r.get("args") or [])
]
result = {"count": len(dupes), "calls": dupes}
