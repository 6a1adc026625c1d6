from operator import itemgetter

history = context["conversation_history"]
ordered = sorted(history, key=itemgetter("timestamp"), reverse=True)
result = [r.get("method_name", "?") for r in ordered[:3]]
