n = int(context.get("window", 10))
history = context.get("conversation_history", [])
window = history[-n:]
result = sum(1 for r in window if r["outcome_summary"].get("value_class") == "NoneType")
