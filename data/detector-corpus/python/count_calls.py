history = context["conversation_history"]
result = {"calls_so_far": len(history)}
