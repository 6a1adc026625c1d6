history = context["conversation_history"]
slowest = sorted(history, key=lambda r: r.get("duration_ms", 0), reverse=True)[:3]
result = [(r["method_name"], r["duration_ms"]) for r in slowest]
