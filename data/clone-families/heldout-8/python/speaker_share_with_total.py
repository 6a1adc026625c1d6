from collections import defaultdict

turns = context.get("conversation_history") or []
per_speaker = defaultdict(int)
for t in turns:
    per_speaker[str(t.get("speaker") or "unknown")] += 1

total = len(turns)
{
    "total": total,
    "shares": {s: {"records": n, "percent": round(100.0 * n / total, 2)} for s, n in per_speaker.items()},
}
