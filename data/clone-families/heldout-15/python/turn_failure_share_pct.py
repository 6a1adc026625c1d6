history = context.get("conversation_history") or []
report = {}
current = None
tally = {}
for rec in history:
    if rec.get("role") == "user":
        current = rec.get("call_id")
        tally[current] = [0, 0]
    if current is None:
        continue
    summary = rec.get("outcome_summary") or {}
    if summary.get("ok") is True:
        tally[current][1] += 1
    elif summary.get("ok") is False:
        tally[current][0] += 1
        tally[current][1] += 1

for turn_id, (bad, seen) in tally.items():
    if seen:
        report[turn_id] = f"{100 * bad / seen:.1f}% failed ({bad}/{seen})"
result = report
