records = context["conversation_history"]


def ok_summary(rec):
    out = rec.get("outcome_summary") or {}
    if out.get("ok") is True and out.get("summary"):
        return out["summary"]
    return None


first_index = {}
for i, rec in enumerate(records):
    s = ok_summary(rec)
    if s is not None:
        first_index.setdefault(s, i)

duplicates = [
    rec.get("call_id")
    for i, rec in enumerate(records)
    if ok_summary(rec) is not None and first_index[ok_summary(rec)] < i
]
result = {"duplicate_results": duplicates, "unique_results": len(first_index)}
