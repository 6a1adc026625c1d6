from collections import OrderedDict

records = context.get("conversation_history") or []
bad = [r for r in records if not r["outcome_summary"].get("ok", True)]
grouped = OrderedDict()
for r in bad:
    if r.get("method_name") and r["outcome_summary"].get("error_message"):
        grouped.setdefault(r["method_name"], OrderedDict())[r["outcome_summary"]["error_message"]] = r["call_id"]
[
    {"method": m, "messages": list(msgs.keys()), "count": len(msgs)}
    for m, msgs in grouped.items()
]
