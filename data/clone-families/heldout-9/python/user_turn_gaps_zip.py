from datetime import datetime

history = context.get("conversation_history", [])
user_times = [datetime.fromisoformat(r["timestamp"]) for r in history if r.get("role") == "user"]
result = [(b - a).total_seconds() for a, b in zip(user_times, user_times[1:])]
