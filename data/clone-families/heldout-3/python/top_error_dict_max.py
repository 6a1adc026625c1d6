tally = {}
for h in context["conversation_history"]:
    o = h.get("outcome_summary", {})
    if o.get("ok") is False and o.get("error_type"):
        tally[o["error_type"]] = tally.get(o["error_type"], 0) + 1
if tally:
    worst = max(tally, key=tally.get)
    result = {"error_type": worst, "occurrences": tally[worst], "distinct_errors": len(tally)}
else:
    result = {"error_type": None, "occurrences": 0, "distinct_errors": 0}
