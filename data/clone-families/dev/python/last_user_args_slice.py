history = context["conversation_history"]
user_turns = [r for r in history if r["speaker"] == "user"]
result = [r["args"] for r in user_turns[-5:]]
