history = context.get("conversation_history") or []
text = ""
for entry in history:
    outcome = entry.get("outcome_summary") or {}
    text += "[{}] {} called {}: {}\n".format(
        entry.get("timestamp"),
        entry.get("speaker"),
        entry.get("method_name"),
        outcome.get("status", "unknown"),
    )
result = text.rstrip("\n")
