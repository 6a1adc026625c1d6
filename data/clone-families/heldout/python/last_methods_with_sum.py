mem = context.get("memory", {})
a = float(mem.get("a", 0))
b = float(mem.get("b", 0))
total = a + b

recent_calls = context["conversation_history"][-5:]
result = {"sum": total, "recent": [c["method_name"] for c in recent_calls]}
