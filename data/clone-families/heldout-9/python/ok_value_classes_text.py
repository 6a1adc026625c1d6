successes = [
    (r["method_name"], r["outcome_summary"]["value_class"])
    for r in conversation_history
    if r.get("method_name") and r["outcome_summary"].get("ok") is True and r["outcome_summary"].get("value_class")
]
methods = sorted({m for m, _ in successes})
result = "\n".join(
    f"{m} returns {' or '.join(sorted({vc for name, vc in successes if name == m}))}" for m in methods
) or "no successful calls"
