records = context["conversation_history"] or []
user_turns = [r for r in records if r["speaker"] == "user"]
result = [r["args"] for r in user_turns]
