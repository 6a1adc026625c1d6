history = context["conversation_history"]
succeeded, failed = [], []
for rec in history:
    if rec["outcome_summary"].get("ok"):
        succeeded.append(rec)
    else:
        failed.append(rec)
result = {"ok": len(succeeded), "failed": [r["method_name"] for r in failed]}
