h = context.get("conversation_history", [])
asked_for_refund = any("refund" in str(r["args"]).lower() for r in h)
result = "escalate" if asked_for_refund else "continue"
