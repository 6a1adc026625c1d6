history = context["conversation_history"]
result = [
    {"method": r["method_name"], "args": r["args"]}
    for r in history
    if r["outcome_summary"]["ok"] and r["outcome_summary"]["value_class"] == "Float"
]
