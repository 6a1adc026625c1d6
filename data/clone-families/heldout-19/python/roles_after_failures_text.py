history = conversation_history
tally = {}
for before, after in zip(history, history[1:]):
    summary = before.get("outcome_summary")
    if not summary or summary.get("ok") is not False:
        continue
    role = after.get("role")
    if role and isinstance(role, str):
        tally[role] = tally.get(role, 0) + 1
parts = [f"{role} x{count}" for role, count in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))]
"After a failed step the next record was: " + (", ".join(parts) if parts else "nothing (no failure was followed by a record)")
