HISTORY_KEY = "conversation_history"
h = context[HISTORY_KEY]
result = [r for r in h if r["speaker"] == "tool"]
