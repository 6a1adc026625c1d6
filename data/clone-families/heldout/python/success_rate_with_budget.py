calls = context["conversation_history"]
n_ok = len([c for c in calls if c["outcome_summary"]["ok"]])
success_rate = n_ok / len(calls) if calls else 0.0

mem = context.get("memory") or {}
budget = float(mem.get("budget", 100))
spent = float(mem.get("spent", 0))
remaining = max(budget - spent, 0)

result = {"remaining_budget": remaining, "success_rate": round(success_rate, 3)}
