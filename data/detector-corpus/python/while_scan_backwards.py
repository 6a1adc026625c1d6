history = context["conversation_history"]
i = len(history) - 1
while i >= 0 and history[i]["speaker"] != "user":
    i -= 1
result = history[i]["args"] if i >= 0 else None
