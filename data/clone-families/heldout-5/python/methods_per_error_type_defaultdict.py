from collections import defaultdict

groups = defaultdict(list)
for entry in context["conversation_history"]:
    summary = entry["outcome_summary"]
    if summary["status"] == "error":
        m = entry["method_name"]
        if m not in groups[summary["error_type"]]:
            groups[summary["error_type"]].append(m)

result = [(t, sorted(ms)) for t, ms in sorted(groups.items())]
