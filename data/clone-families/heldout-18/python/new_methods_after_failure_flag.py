history = context.get("conversation_history") or []
seen = set()
introduced = []
failed_yet = False
for step in history:
    name = step.get("method_name")
    if failed_yet and name and name not in seen:
        introduced.append({"method": name, "first_call": step.get("call_id")})
    if name:
        seen.add(name)
    summary = step.get("outcome_summary")
    if isinstance(summary, dict) and summary.get("ok") is False:
        failed_yet = True
result = introduced
