tool = kwargs.get("tool", "web_search")
found = []
for rec in conversation_history:
    if rec.get("method_name") != tool:
        continue
    outcome = rec.get("outcome_summary") or {}
    if outcome.get("ok"):
        found.append(outcome.get("summary"))
    if len(found) == 3:
        break
result = found
