from collections import Counter

history = context.get("conversation_history", [])
following = Counter()
for i, record in enumerate(history[:-1]):
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is False:
        role = history[i + 1].get("role")
        if isinstance(role, str) and role:
            following[role] += 1
result = dict(following)
