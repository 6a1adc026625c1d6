history = context.get("conversation_history", [])
retries = kwargs.get("retries", 0) + 1
i = len(history) - 1
value = None
while i >= 0:
    item = history[i]
    oc = item.get("outcome_summary") or {}
    if item.get("method_name") == (args[0] if args else "search_web") and oc.get("ok"):
        value = oc.get("summary")
        break
    i -= 1
result = {"value": value, "retries": retries}
