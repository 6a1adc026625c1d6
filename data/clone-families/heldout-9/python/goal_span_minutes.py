from datetime import datetime

def ts(rec):
    return datetime.strptime(rec["timestamp"], "%Y-%m-%dT%H:%M:%SZ")

log = context["conversation_history"]
spans = {}
for entry in log:
    g = (entry.get("goal") or "").strip()
    if not g:
        continue
    if g in spans:
        spans[g][1] = ts(entry)
        spans[g][2] += 1
    else:
        spans[g] = [ts(entry), ts(entry), 1]
result = [
    {"goal": g, "minutes": round((end - start).total_seconds() / 60, 1), "records": n}
    for g, (start, end, n) in spans.items()
]
