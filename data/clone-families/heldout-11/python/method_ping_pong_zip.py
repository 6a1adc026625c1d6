steps = [r for r in context["conversation_history"] if r.get("method_name")]
result = [
    c["call_id"]
    for a, b, c in zip(steps, steps[1:], steps[2:])
    if a["method_name"] == c["method_name"] != b["method_name"]
]
