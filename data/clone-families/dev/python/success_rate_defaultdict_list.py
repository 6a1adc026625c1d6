from collections import defaultdict

outcomes = defaultdict(list)
for call in context.get("conversation_history", []):
    outcomes[call["method_name"]].append(bool(call["outcome_summary"].get("ok")))

result = {}
for method, flags in outcomes.items():
    result[method] = round(sum(flags) / len(flags), 2)
