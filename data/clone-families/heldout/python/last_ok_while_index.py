records = context.get("conversation_history") or []
i = len(records) - 1
found = None
while i >= 0:
    summary = records[i].get("outcome_summary") or {}
    if summary.get("status") == "ok":
        found = summary.get("value_class")
        break
    i -= 1
result = found
