from collections import defaultdict

sizes = defaultdict(list)
for turn in conversation_history:
    text = turn.get("result")
    sizes[turn.get("speaker")].append(len(text) if text else 0)

averages = {who: sum(v) / len(v) for who, v in sizes.items()}
result = sorted(averages.items(), key=lambda kv: kv[0])
