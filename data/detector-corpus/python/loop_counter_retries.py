history = context["conversation_history"]
retries = 0
for rec in history:
    if rec["method_name"] == "retry":
        retries += 1
result = retries
