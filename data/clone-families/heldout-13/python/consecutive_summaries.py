history = context.get("conversation_history", [])
previous = None
repeats = []
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not True:
        continue
    summary = outcome.get("summary")
    if summary and previous is not None and summary == previous[1]:
        repeats.append({"call_id": record.get("call_id"), "same_as": previous[0]})
    previous = (record.get("call_id"), summary)
result = repeats
