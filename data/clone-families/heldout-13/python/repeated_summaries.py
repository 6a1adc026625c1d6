history = context.get("conversation_history", [])
seen = {}
repeats = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not True:
        continue
    summary = outcome.get("summary")
    if not summary:
        continue
    if summary in seen:
        repeats.append({"call_id": record.get("call_id"), "same_as": seen[summary]})
    else:
        seen[summary] = record.get("call_id")
result = repeats
