from collections import Counter

entries = context.get("conversation_history") or []
seen, passed = Counter(), Counter()
for entry in entries:
    kind = entry.get("role")
    flag = (entry.get("outcome_summary") or {}).get("ok")
    if kind and isinstance(flag, bool):
        seen[kind] += 1
        passed[kind] += flag is True
result = {kind: round(passed[kind] / seen[kind], 2) for kind in seen}
