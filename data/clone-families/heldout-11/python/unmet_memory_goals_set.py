mem = context["memory"] if isinstance(context.get("memory"), dict) else {}
wanted = list(mem.get("goals", None) or [])
done = {
    r.get("goal")
    for r in context["conversation_history"]
    if isinstance(r.get("outcome_summary"), dict) and r["outcome_summary"].get("ok") is True
}
result = sorted({g for g in wanted if g not in done})
