history = context.get("conversation_history", [])

failed_before = set()
recovered = set()
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    if record.get("outcome_summary", {}).get("ok"):
        if method in failed_before:
            recovered.add(method)
    else:
        failed_before.add(method)

result = sorted(recovered)
