history = context["conversation_history"]
latest = max(history, key=lambda r: r["timestamp"])
result = latest["outcome_summary"].get("summary") or latest.get("goal")
