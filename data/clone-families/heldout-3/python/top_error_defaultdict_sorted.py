from collections import defaultdict

seen = defaultdict(list)
for entry in conversation_history or []:
    summary = entry.get("outcome_summary")
    if not summary or summary.get("ok"):
        continue
    kind = summary.get("error_type")
    if kind:
        seen[kind].append(summary.get("error_message"))
ranked = sorted(seen.items(), key=lambda kv: -len(kv[1]))
result = (ranked[0][0], len(ranked[0][1]), ranked[0][1][-1]) if ranked else None
