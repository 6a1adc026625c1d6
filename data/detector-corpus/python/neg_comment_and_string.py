# conversation_history is available but this method does not need it.
value = float(args[0]) if args else 0.0
context["memory"] = context.get("memory", 0.0) + value
result = {"note": "conversation_history not consulted", "memory": context["memory"]}
