from collections import Counter

records = context.get("conversation_history") or []
index = {}
for r in records:
    if r.get("call_id"):
        index[r["call_id"]] = r
parent_methods = Counter()
for r in records:
    failed = (r.get("outcome_summary") or {}).get("ok") is False
    pid = r.get("parent_call_id")
    if failed and pid in index and index[pid].get("method_name"):
        parent_methods[index[pid]["method_name"]] += 1
result = dict(parent_methods.most_common())
