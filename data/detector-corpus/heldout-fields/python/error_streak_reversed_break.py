history = context["conversation_history"]
streak = 0
for rec in reversed(history):
    if rec["outcome_summary"]["status"] != "error":
        break
    streak += 1
result = streak
