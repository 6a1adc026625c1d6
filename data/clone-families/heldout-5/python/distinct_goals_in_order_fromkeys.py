list(dict.fromkeys(r["goal"] for r in context["conversation_history"] if r["goal"]))
