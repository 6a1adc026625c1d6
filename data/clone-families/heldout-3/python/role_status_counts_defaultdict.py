from collections import Counter, defaultdict

by_role = defaultdict(Counter)
for entry in conversation_history or []:
    by_role[entry.get("role")][(entry.get("outcome_summary") or {}).get("status")] += 1
result = [(r, dict(c)) for r, c in by_role.items()]
