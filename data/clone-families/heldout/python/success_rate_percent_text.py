history = context.get("conversation_history") or []
if not history:
    result = "no calls yet"
else:
    good = len([h for h in history if h["outcome_summary"]["status"] == "ok"])
    pct = 100.0 * good / len(history)
    result = f"{good}/{len(history)} calls succeeded ({pct:.1f}%)"
