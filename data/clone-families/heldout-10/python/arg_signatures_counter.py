from collections import Counter

usage = Counter(
    (r["method_name"], tuple(type(x).__name__ for x in (r.get("args") or [])))
    for r in conversation_history
    if r.get("method_name")
)
lines = [f"{method}({', '.join(sig)}) x{n}" for (method, sig), n in sorted(usage.items())]
result = "\n".join(lines)
