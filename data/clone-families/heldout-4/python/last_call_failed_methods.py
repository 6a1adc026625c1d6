history = context.get("conversation_history", [])

latest_ok = {}
for rec in history:
    latest_ok[rec["method"]] = rec["outcome_summary"]["ok"]

result = sorted(m for m, ok in latest_ok.items() if not ok)
