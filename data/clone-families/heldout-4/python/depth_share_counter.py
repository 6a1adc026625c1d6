from collections import Counter

calls = conversation_history or []
tally = Counter(c.get("depth", 0) for c in calls)
result = [
    {"depth": d, "calls": k, "share_pct": round(100.0 * k / len(calls), 1)}
    for d, k in sorted(tally.items())
]
