history = context["conversation_history"]
first = history[0] if history else None
result = first["args"] if first else []
