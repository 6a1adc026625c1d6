from collections import Counter

tally = Counter(
    r["outcome_summary"]["value_class"]
    for r in context["conversation_history"]
    if r["outcome_summary"]["ok"] is True
)
result = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
