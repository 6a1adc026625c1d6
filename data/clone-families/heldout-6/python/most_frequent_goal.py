from collections import Counter

history = context.get("conversation_history", [])
tally = Counter()
for record in reversed(history):
    goal = record.get("goal")
    if goal:
        tally[goal] += 1
top = tally.most_common(1)
result = top[0][0] if top else None
