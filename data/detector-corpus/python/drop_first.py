h = context["conversation_history"]
rest = h[1:]
result = [r["speaker"] for r in rest]
