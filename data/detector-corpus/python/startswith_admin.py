history = context["conversation_history"]
admin_calls = [r for r in history if r["method_name"].startswith("admin_")]
result = len(admin_calls)
