from itertools import takewhile

hist = conversation_history or []
goal_now = hist[-1].get("goal") if hist else None
run = list(takewhile(lambda r: r.get("goal") == goal_now, reversed(hist)))
result = {"goal": goal_now, "calls_since_change": len(run)}
