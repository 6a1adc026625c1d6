last_seen = {}
first_fail = {}
for pos, entry in enumerate(conversation_history):
    m = entry.get("method_name")
    last_seen[m] = pos
    if not (entry.get("outcome_summary") or {}).get("ok") and m not in first_fail:
        first_fail[m] = pos
result = sorted(m for m, p in first_fail.items() if last_seen[m] > p)
