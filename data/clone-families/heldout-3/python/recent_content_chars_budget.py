BUDGET = 4000
recent_msgs = context["conversation_history"][-8:]
used = sum(len(m.get("content") or "") for m in recent_msgs)
result = {"chars": used, "over_budget": used > BUDGET, "remaining": max(BUDGET - used, 0)}
