history = context["conversation_history"]
result = [r["method_name"] for r in history[-5:]]
