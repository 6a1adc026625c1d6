records = context["conversation_history"]
position = {rec["call_id"]: i for i, rec in enumerate(records)}
lo = position.get(kwargs["start_id"])
hi = position.get(kwargs["end_id"])
if lo is None or hi is None or hi <= lo:
    window = []
else:
    window = records[lo + 1:hi]
called = [rec["method_name"] for rec in window if rec.get("method_name")]
result = {"from": kwargs["start_id"], "to": kwargs["end_id"], "methods": called, "count": len(called)}
