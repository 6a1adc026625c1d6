# Trim the conversation to fit a token budget, newest first.
budget = int(kwargs.get("budget", 2000))
kept = []
used = 0
for rec in reversed(context["conversation_history"]):
    cost = len(str(rec["outcome_summary"])) // 4
    if used + cost > budget:
        break
    kept.append(rec)
    used += cost
result = list(reversed(kept))
