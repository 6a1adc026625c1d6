from collections import Counter

breakdown = {}
for step in conversation_history:
    goal = step.get("goal") or ""
    summary = step.get("outcome_summary") or {}
    if goal == "" or summary.get("ok") is not False:
        continue
    kind = summary.get("error_type")
    if kind:
        breakdown.setdefault(goal, Counter())[kind] += 1

breakdown = {goal: dict(counter.most_common()) for goal, counter in breakdown.items()}
breakdown
