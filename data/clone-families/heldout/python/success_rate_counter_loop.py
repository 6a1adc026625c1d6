history = context.get("conversation_history", [])
succeeded = 0
for call in history:
    if call.get("outcome_summary", {}).get("ok"):
        succeeded += 1
rate = succeeded / len(history) if history else 0.0
result = {"ok": succeeded, "total": len(history), "rate": round(rate, 3)}
