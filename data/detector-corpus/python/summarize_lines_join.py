history = context["conversation_history"]
lines = []
for rec in history:
    lines.append(f"[{rec['timestamp']}] {rec['speaker']}: {rec['method_name']}")
result = "\n".join(lines)
