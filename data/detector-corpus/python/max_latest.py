h = context["conversation_history"]
latest = max(h, key=lambda r: r["timestamp"]) if h else None
result = latest["call_id"] if latest else None
