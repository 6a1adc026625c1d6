history = context.get("conversation_history", [])
retries = 0
for prev, cur in zip(history, history[1:]):
    method = cur.get("method_name")
    if method and method == prev.get("method_name") and not prev["outcome_summary"]["ok"]:
        retries += 1
result = retries
