n = kwargs.get("n", 10)
history = context.get("conversation_history", [])

window = history
if window:
    ok = sum(1 for r in window if (r.get("outcome_summary") or {}).get("ok"))
    result = {"records": len(window), "ok": ok, "success_rate": ok / len(window), "asked_window": n}
else:
    result = {"records": 0, "ok": 0, "success_rate": None, "asked_window": n}
