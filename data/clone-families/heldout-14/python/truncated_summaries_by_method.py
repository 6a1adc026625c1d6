from collections import defaultdict


def looks_cut(text):
    text = str(text or "").rstrip()
    return text[-3:] == "..." or text[-1:] == "…"


per_method = defaultdict(list)
for rec in context.get("conversation_history", []):
    out = rec.get("outcome_summary")
    if not out or not out.get("ok"):
        continue
    if looks_cut(out.get("summary")):
        per_method[rec.get("method_name") or "(none)"].append(rec.get("call_id"))

result = {
    "total": sum(len(v) for v in per_method.values()),
    "by_method": dict(per_method),
}
