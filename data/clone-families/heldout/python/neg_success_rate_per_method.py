history = context["conversation_history"]
stats = {}
for r in history:
    s = stats.setdefault(r["method_name"], {"total": 0, "ok": 0})
    s["total"] += 1
    if r["outcome_summary"]["ok"]:
        s["ok"] += 1
result = {m: {"total": s["total"], "ok": s["ok"], "rate": round(s["ok"] / s["total"], 3)} for m, s in stats.items()}
