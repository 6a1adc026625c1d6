lines = []
current, goals = None, []


def flush():
    if current is not None and goals:
        lines.append(f"turn {current}: {', '.join(goals)}")


for msg in conversation_history:
    if msg.get("role") == "user":
        flush()
        current, goals = msg.get("call_id"), []
    g = msg.get("goal")
    if current is not None and g and g not in goals:
        goals.append(g)
flush()

"\n".join(lines) or "No goals recorded in any user turn."
