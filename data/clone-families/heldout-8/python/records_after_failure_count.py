history = context.get("conversation_history", [])
after_failure = 0
for prev, cur in zip(history, history[1:]):
    if not prev["outcome_summary"]["ok"]:
        after_failure += 1
result = after_failure
