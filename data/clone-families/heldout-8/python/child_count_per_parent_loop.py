records = context["conversation_history"]
by_id = {rec["call_id"]: rec for rec in records}
fanout = {}
for rec in records:
    parent = rec.get("parent_call_id")
    if parent:
        fanout[parent] = fanout.get(parent, 0) + 1

rows = []
for parent, n in fanout.items():
    parent_rec = by_id.get(parent)
    rows.append({
        "parent": parent,
        "children": n,
        "parent_method": parent_rec.get("method_name") if parent_rec else None,
    })
rows.sort(key=lambda row: -row["children"])
result = rows
