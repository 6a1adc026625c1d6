from itertools import groupby

records = context["conversation_history"]
ok_calls = [
    (i, r)
    for i, r in enumerate(records)
    if r.get("method_name") and (r.get("outcome_summary") or {}).get("ok") is True
]
ok_calls.sort(key=lambda pair: (pair[1]["method_name"], pair[0]))

changes = {}
for method, group in groupby(ok_calls, key=lambda pair: pair[1]["method_name"]):
    classes = [(r.get("call_id"), r["outcome_summary"].get("value_class") or None) for _, r in group]
    hits = [cid for (_, a), (cid, b) in zip(classes, classes[1:]) if a != b]
    if hits:
        changes[method] = hits

result = changes
