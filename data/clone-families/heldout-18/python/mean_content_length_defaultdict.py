from collections import defaultdict

lengths = defaultdict(list)
for item in context["conversation_history"]:
    if item.get("role") and isinstance(item.get("content"), str):
        lengths[item["role"]].append(len(item["content"]))

result = sorted(((role, sum(v) / len(v)) for role, v in lengths.items()), key=lambda pair: -pair[1])
