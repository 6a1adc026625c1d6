seen = set()
ordered = []
for entry in conversation_history:
    goal = (entry.get("goal") or "").strip()
    if not goal or goal in seen:
        continue
    seen.add(goal)
    ordered.append(goal)

result = "\n".join(f"{i}. {g}" for i, g in enumerate(ordered, 1))
