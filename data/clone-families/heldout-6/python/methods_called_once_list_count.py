history = context.get("conversation_history", [])
method_names = [item["method_name"] for item in history if item.get("method_name") is not None]
result = sorted({n for n in method_names if method_names.count(n) == 1})
