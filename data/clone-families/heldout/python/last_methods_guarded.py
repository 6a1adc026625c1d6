history = context.get("conversation_history") or []
if not history:
    result = []
else:
    tail = history[len(history) - 5:] if len(history) > 5 else history
    result = [entry["method_name"] for entry in tail if entry.get("method_name")]
