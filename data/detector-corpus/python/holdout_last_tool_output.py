tool_outputs = [
    r["outcome_summary"] for r in context["conversation_history"] if r["speaker"] == "tool"
]
result = tool_outputs[-1] if tool_outputs else None
