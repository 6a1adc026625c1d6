from collections import defaultdict

groups = defaultdict(list)
for call in context["conversation_history"][-20:]:
    groups[call["method_name"]].append(call["outcome_summary"]["ok"])
result = {m: sum(oks) / len(oks) for m, oks in groups.items()}
