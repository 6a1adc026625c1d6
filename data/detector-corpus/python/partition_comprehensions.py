h = context["conversation_history"]
tool_calls = [r for r in h if r["speaker"] == "tool"]
other = [r for r in h if r["speaker"] != "tool"]
result = {"tool": len(tool_calls), "other": len(other)}
