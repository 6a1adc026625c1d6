def clean(value):
    return value.strip() if isinstance(value, str) else ""


records = context["conversation_history"]
index = {}
for rec in records:
    if rec.get("call_id"):
        index[rec["call_id"]] = rec

result = [
    rec.get("call_id")
    for rec in records
    if rec.get("parent_call_id") in index
    and clean(rec.get("goal"))
    and clean(rec.get("goal")) == clean(index[rec["parent_call_id"]].get("need"))
]
