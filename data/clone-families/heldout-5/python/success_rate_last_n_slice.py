n = kwargs.get("n", 10)
history = context.get("conversation_history", [])

window = history[-n:] if n > 0 else []
if window:
    ok = sum(1 for r in window if (r.get("outcome_summary") or {}).get("ok"))
    result = {"window": len(window), "ok": ok, "success_rate": ok / len(window)}
else:
    result = {"window": 0, "ok": 0, "success_rate": None}
