history = context.get("conversation_history") or []
memory = context.get("memory") or {}
notes = len(memory) if hasattr(memory, "__len__") else 0
goals = [h["goal"] for h in history if isinstance(h.get("goal"), str) and h["goal"]]
result = {"latest_goal": goals[-1] if goals else None, "goal_changes_seen": len(goals), "memory_items": notes}
