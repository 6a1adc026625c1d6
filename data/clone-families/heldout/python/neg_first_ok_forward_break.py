history = context["conversation_history"]
value_class = None
for rec in history:
    if rec["outcome_summary"]["ok"]:
        value_class = rec["outcome_summary"]["value_class"]
        break
result = value_class
