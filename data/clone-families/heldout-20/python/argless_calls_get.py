history = context["conversation_history"]
tally = {}
for step in history:
    method = step.get("method_name")
    if method and not step.get("args"):
        tally[method] = tally.get(method, 0) + 1
result = tally
