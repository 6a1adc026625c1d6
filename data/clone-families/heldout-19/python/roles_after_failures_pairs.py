from collections import Counter


def failed(rec):
    return (rec.get("outcome_summary") or {}).get("ok") is False


history = context.get("conversation_history", [])
roles = Counter()
previous = None
for rec in history:
    if previous is not None and failed(previous):
        role = rec.get("role")
        if isinstance(role, str) and role:
            roles[role] += 1
    previous = rec
result = roles.most_common()
