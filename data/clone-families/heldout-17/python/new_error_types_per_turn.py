history = context.get("conversation_history") or []
per_turn = {}
seen_before = set()
current = None
for record in history:
    if record.get("role") == "user":
        seen_before |= set(per_turn.get(current, []))
        current = record.get("call_id")
    if current is None:
        continue
    outcome = record.get("outcome_summary") or {}
    error_type = outcome.get("error_type")
    if outcome.get("ok") is False and error_type and error_type not in seen_before:
        per_turn.setdefault(current, [])
        if error_type not in per_turn[current]:
            per_turn[current].append(error_type)
result = per_turn
