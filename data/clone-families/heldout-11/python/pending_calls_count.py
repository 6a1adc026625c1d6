history = context.get("conversation_history") or []
method_calls = 0
unresolved = {}
for item in history:
    method = item.get("method_name")
    if not isinstance(method, str) or method == "":
        continue
    method_calls += 1
    outcome = item.get("outcome_summary")
    if outcome is None or outcome == {}:
        unresolved[item["call_id"]] = method
result = {"calls": method_calls, "without_outcome": len(unresolved), "pending": unresolved}
