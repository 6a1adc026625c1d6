from collections import defaultdict

records = context["conversation_history"]
by_parent = defaultdict(list)
for rec in records:
    if rec.get("parent_call_id"):
        by_parent[rec["parent_call_id"]].append(rec)


def all_good(kids):
    return all(isinstance(k.get("outcome_summary"), dict) and k["outcome_summary"].get("ok") is True for k in kids)


result = [
    rec["call_id"]
    for rec in records
    if rec["call_id"] in by_parent and all_good(by_parent[rec["call_id"]])
]
