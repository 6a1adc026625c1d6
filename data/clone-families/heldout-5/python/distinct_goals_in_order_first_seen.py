recs = context.get("conversation_history") or []

first_seen = {}
for pos, r in enumerate(recs):
    if r.get("goal"):
        first_seen.setdefault(r["goal"], (pos, r.get("timestamp")))

result = [
    {"goal": g, "since": ts}
    for g, (pos, ts) in sorted(first_seen.items(), key=lambda kv: kv[1][0])
]
