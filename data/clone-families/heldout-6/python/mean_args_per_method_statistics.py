from collections import defaultdict
from statistics import mean

by_method = defaultdict(list)
for entry in context["conversation_history"]:
    if entry.get("method_name"):
        by_method[entry["method_name"]].append(len(entry.get("args", [])))

result = sorted(
    ((name, round(mean(sizes), 2)) for name, sizes in by_method.items()),
    key=lambda pair: -pair[1],
)
