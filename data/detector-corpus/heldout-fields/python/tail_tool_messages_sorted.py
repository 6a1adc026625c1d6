history = context["conversation_history"]
ordered = sorted(history[-10:], key=lambda r: r["timestamp"])
result = [(r["timestamp"], r["name"]) for r in ordered if r.get("role") == "tool"]
