history = context["conversation_history"]
total = len(history)
ok = sum(1 for r in history if r["outcome_summary"]["ok"])
result = {"total": total, "ok": ok, "rate": round(ok / total, 3) if total else 0.0}
