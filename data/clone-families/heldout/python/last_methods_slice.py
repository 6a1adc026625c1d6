history = context["conversation_history"]
recent = history[-5:]
result = [r["method_name"] for r in recent]
