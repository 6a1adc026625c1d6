history = context["conversation_history"]
totals = {}
oks = {}
for r in history:
    name = r["method_name"]
    totals[name] = totals.get(name, 0) + 1
    if r["outcome_summary"]["ok"]:
        oks[name] = oks.get(name, 0) + 1
result = {name: round(oks.get(name, 0) / n, 2) for name, n in totals.items()}
