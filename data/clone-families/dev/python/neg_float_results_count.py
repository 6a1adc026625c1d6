history = context["conversation_history"]
result = {
    "float_results": len([
        r
        for r in history
        if r["outcome_summary"]["ok"] and r["outcome_summary"]["value_class"] == "Float"
    ])
}
