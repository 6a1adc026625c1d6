history = context.get("conversation_history", [])
numeric = []
for item in history:
    summary = item.get("outcome_summary") or {}
    if not summary.get("ok"):
        continue
    if summary.get("value_class") != "Float":
        continue
    numeric.append({"method": item.get("method_name"), "args": item.get("args", [])})
result = numeric
