# The host injects conversation_history as a global variable.
recent = conversation_history[-3:]
result = [r["method_name"] for r in recent]
