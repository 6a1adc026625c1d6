history = context["conversation_history"]
speakers = [h["speaker"] for h in history]
result = {s: speakers.count(s) for s in set(speakers)}
