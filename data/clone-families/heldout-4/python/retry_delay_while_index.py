import datetime as dt

conversation = conversation_history or []
n = len(conversation)
out = []
i = 0
while i < n:
    entry = conversation[i]
    ok = entry["outcome_summary"]["ok"]
    if not ok:
        j = i + 1
        while j < n and conversation[j]["method"] != entry["method"]:
            j += 1
        if j < n:
            start = dt.datetime.strptime(entry["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
            end = dt.datetime.strptime(conversation[j]["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
            out.append(f"{entry['method']}: retried after {(end - start).total_seconds():.1f}s")
    i += 1

result = "\n".join(out) if out else "no retried failures"
