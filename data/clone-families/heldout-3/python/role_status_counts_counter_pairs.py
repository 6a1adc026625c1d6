from collections import Counter

pairs = Counter(
    (m.get("role"), m.get("outcome_summary", {}).get("status"))
    for m in context["conversation_history"]
)
table = {}
for (who, st), n in pairs.items():
    table.setdefault(who, {})[st] = n
result = table
