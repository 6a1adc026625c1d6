history = context.get("conversation_history") or []

pairs = {
    (h["goal"], h["outcome_summary"]["error_type"])
    for h in history
    if h.get("goal")
    and (h.get("outcome_summary") or {}).get("ok") is False
    and h["outcome_summary"].get("error_type")
}
goals = sorted({goal for goal, _ in pairs})
result = [
    {"goal": goal, "error_types": sorted(t for g, t in pairs if g == goal), "n": sum(1 for g, _ in pairs if g == goal)}
    for goal in goals
]
