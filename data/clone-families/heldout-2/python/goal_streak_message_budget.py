budget = float(kwargs.get("budget", 0)) * 1.1
entries = conversation_history
idx = len(entries)
if idx == 0:
    result = "No history."
else:
    goal = entries[-1].get("goal")
    while idx > 0 and entries[idx - 1].get("goal") == goal:
        idx -= 1
    result = f"{len(entries) - idx} calls since the goal became {goal!r} (budget {budget:.1f})"
