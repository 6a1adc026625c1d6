# Show the last few calls so the user can see what just happened.
history = context.get("conversation_history", [])
recent = history[-5:]
result = [f"{r['method_name']} -> {r['outcome_summary']}" for r in recent]
