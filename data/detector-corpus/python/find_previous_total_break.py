history = context.get("conversation_history", [])
previous_total = None
for record in reversed(history):
    if record["method_name"] == "total":
        previous_total = record["outcome_summary"]
        break
result = previous_total
