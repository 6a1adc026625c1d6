records = list(context["conversation_history"])
records.sort(key=lambda r: r["duration_ms"] or 0)
result = [r["method_name"] for r in records[:3]]
