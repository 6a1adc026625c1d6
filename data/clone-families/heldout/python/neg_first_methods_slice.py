history = context["conversation_history"]
opening = history[:5]
result = [r["method_name"] for r in opening]
