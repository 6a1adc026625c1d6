import itertools


def role_of(rec):
    return str(rec.get("role"))


ordered = sorted(conversation_history, key=role_of)
summary = {}
for role_name, group in itertools.groupby(ordered, key=role_of):
    tally = {}
    for g in group:
        s = g.get("outcome_summary", {}).get("status")
        tally[s] = tally.get(s, 0) + 1
    summary[role_name] = tally
result = summary
