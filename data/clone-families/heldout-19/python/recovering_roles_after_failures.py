from collections import Counter

history = context.get("conversation_history", [])
following = Counter()
for i, record in enumerate(history[:-1]):
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is False:
        for later in history[i + 1:]:
            if (later.get("outcome_summary") or {}).get("ok") is True:
                role = later.get("role")
                if isinstance(role, str) and role:
                    following[role] += 1
                break
result = dict(following)
