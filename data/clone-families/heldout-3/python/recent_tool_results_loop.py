tool = kwargs.get("tool", "web_search")
matches = []
for rec in conversation_history:
    if rec.get("method_name") != tool:
        continue
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok"):
        matches.append(outcome.get("summary"))
result = matches[-3:]
